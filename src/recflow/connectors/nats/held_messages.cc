// HeldMessages: appending records, finding sequences in the open-addressing table, growing it.
#include "recflow/connectors/nats/held_messages.h"

namespace recflow::nats {

namespace {

constexpr size_t kFirstSlots = 1024;

}  // namespace

const HeldMessages::Slot* HeldMessages::Find(uint64_t sequence) const {
  if (slots_.empty() || sequence == 0) return nullptr;
  const size_t mask = slots_.size() - 1;
  for (size_t i = Home(sequence, mask);; i = (i + 1) & mask) {
    if (slots_[i].sequence == sequence) return &slots_[i];
    if (slots_[i].sequence == 0) return nullptr;
  }
}

bool HeldMessages::Hold(uint64_t sequence, std::string_view reply) {
  if ((count_ + 1) * 4 > slots_.size() * 3) Grow();
  const size_t mask = slots_.size() - 1;
  size_t i = Home(sequence, mask);
  while (slots_[i].sequence != 0 && slots_[i].sequence != sequence) i = (i + 1) & mask;
  const bool fresh = slots_[i].sequence == 0;
  if (!fresh) std::memset(records_.data() + slots_[i].offset, 0, sizeof sequence);  // the earlier record is stale
  slots_[i] = Slot{sequence, records_.size()};
  records_.append(reinterpret_cast<const char*>(&sequence), sizeof sequence);
  records_.append(reply);
  records_.push_back('\0');
  if (fresh) ++count_;
  return fresh;
}

void HeldMessages::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? kFirstSlots : old.size() * 2, Slot{});
  const size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.sequence == 0) continue;
    size_t i = Home(slot.sequence, mask);
    while (slots_[i].sequence != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

}  // namespace recflow::nats
