// NatsConnection: connecting with reconnects (counted), publishing, requests, and JetStream API error replies read with simdjson.
#include "recflow/connectors/nats/nats_connection.h"

#include <nats/nats.h>
#include <simdjson.h>

namespace recflow::nats {

Status NatsStatus(int status, std::string_view what) {
  const auto s = static_cast<natsStatus>(status);
  if (s == NATS_OK) return Status::OK();
  std::string message = std::string(what) + ": " + natsStatus_GetText(s);
  natsStatus last = NATS_OK;
  const char* detail = nats_GetLastError(&last);
  if (detail != nullptr && *detail != '\0' && message.find(detail) == std::string::npos) message += std::string(" (") + detail + ")";
  return Status::IOError(std::move(message));
}

Result<std::unique_ptr<NatsConnection>> NatsConnection::Connect(const std::string& url) {
  natsOptions* options = nullptr;
  RETURN_NOT_OK(NatsStatus(natsOptions_Create(&options), "nats options"));
  std::unique_ptr<natsOptions, decltype(&natsOptions_Destroy)> owned(options, natsOptions_Destroy);
  RETURN_NOT_OK(NatsStatus(natsOptions_SetURL(options, url.c_str()), "nats url " + url));
  RETURN_NOT_OK(NatsStatus(natsOptions_SetName(options, "recflow"), "nats options"));
  RETURN_NOT_OK(NatsStatus(natsOptions_SetTimeout(options, 5000), "nats options"));
  RETURN_NOT_OK(NatsStatus(natsOptions_SetMaxReconnect(options, -1), "nats options"));
  RETURN_NOT_OK(NatsStatus(natsOptions_SetReconnectWait(options, 250), "nats options"));
  auto connection = std::make_unique<NatsConnection>(url);
  RETURN_NOT_OK(NatsStatus(natsOptions_SetReconnectedCB(options, &NatsConnection::OnReconnected, connection.get()), "nats options"));
  RETURN_NOT_OK(NatsStatus(natsConnection_Connect(&connection->connection_, options), "cannot connect to " + url));
  return connection;
}

void NatsConnection::OnReconnected(natsConnection*, void* self) {
  static_cast<NatsConnection*>(self)->reconnects_.fetch_add(1, std::memory_order_acq_rel);
}

NatsConnection::~NatsConnection() {
  if (connection_ == nullptr) return;
  natsConnection_Close(connection_);
  natsConnection_Destroy(connection_);
}

Status NatsConnection::Publish(const char* subject, std::string_view data, const char* reply) {
  const int length = static_cast<int>(data.size());
  const natsStatus s = reply == nullptr
                           ? natsConnection_Publish(connection_, subject, data.data(), length)
                           : natsConnection_PublishRequest(connection_, subject, reply, data.data(), length);
  if (s == NATS_OK) return Status::OK();  // the message below is built only for an error (acks publish per message)
  return NatsStatus(s, url_ + ": publish on " + std::string(subject));
}

Result<std::string> NatsConnection::Request(const std::string& subject, std::string_view data, int64_t timeout_ms) {
  natsMsg* reply = nullptr;
  const natsStatus s = natsConnection_Request(&reply, connection_, subject.c_str(), data.data(),
                                              static_cast<int>(data.size()), timeout_ms);
  if (s == NATS_NO_RESPONDERS) return Status::IOError(url_ + ": no one answers on " + subject);
  RETURN_NOT_OK(NatsStatus(s, url_ + ": request on " + subject));
  std::string payload(natsMsg_GetData(reply), static_cast<size_t>(natsMsg_GetDataLength(reply)));
  natsMsg_Destroy(reply);
  return payload;
}

Status NatsConnection::Flush(int64_t timeout_ms) {
  return NatsStatus(natsConnection_FlushTimeout(connection_, timeout_ms), url_ + ": flush");
}

Result<std::string> NatsConnection::NewInbox() const {
  natsInbox* inbox = nullptr;
  RETURN_NOT_OK(NatsStatus(natsInbox_Create(&inbox), url_ + ": inbox"));
  std::string subject = inbox;
  natsInbox_Destroy(inbox);
  return subject;
}

Result<NatsConnection::Subscription> NatsConnection::SubscribeSync(const std::string& subject) {
  natsSubscription* raw = nullptr;
  RETURN_NOT_OK(NatsStatus(natsConnection_SubscribeSync(&raw, connection_, subject.c_str()), url_ + ": subscribe to " + subject));
  Subscription sub(raw, natsSubscription_Destroy);
  RETURN_NOT_OK(NatsStatus(natsSubscription_SetPendingLimits(raw, -1, -1), url_ + ": subscribe to " + subject));
  return sub;
}

Status JetStreamApiError(std::string_view reply, std::string_view what, int64_t* err_code) {
  if (err_code != nullptr) *err_code = 0;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(reply.data(), reply.size()).get(doc) != simdjson::SUCCESS || !doc.is_object()) {
    return Status::DataError(std::string(what) + ": the JetStream API replied with something that is not a JSON object");
  }
  simdjson::dom::object error;
  if (doc["error"].get(error) != simdjson::SUCCESS) return Status::OK();
  int64_t code = 0;
  std::string_view description = "unknown error";
  if (error["err_code"].get(code) != simdjson::SUCCESS) code = 0;
  if (error["description"].get(description) != simdjson::SUCCESS) description = "unknown error";
  if (err_code != nullptr) *err_code = code;
  return Status::IOError(std::string(what) + ": " + std::string(description) + " (JetStream error " + std::to_string(code) + ")");
}

}  // namespace recflow::nats
