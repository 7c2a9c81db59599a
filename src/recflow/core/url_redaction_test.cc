// RedactUrlPasswords: passwords masked in every URL of a text, users and everything else kept, a Status's file redacted.
#include "recflow/core/url_redaction.h"

#include <gtest/gtest.h>

#include "recflow/core/status.h"

namespace recflow {
namespace {

TEST(UrlRedactionTest, MasksThePasswordOfEveryUrlAndKeepsTheRest) {
  EXPECT_EQ(RedactUrlPasswords("/vsicurl/https://reader:s3cret@host:8080/b/B04.tif"),
            "/vsicurl/https://reader:***@host:8080/b/B04.tif");
  EXPECT_EQ(RedactUrlPasswords("a http://u:p@h/x and ftp://v:q@k?y=1 end"), "a http://u:***@h/x and ftp://v:***@k?y=1 end");
  // A password holding '@' or ':' is masked whole (the userinfo ends at the last '@').
  EXPECT_EQ(RedactUrlPasswords("https://u:p@ss:w@host/f"), "https://u:***@host/f");
  // An '@' past the host is the path's, not a userinfo.
  EXPECT_EQ(RedactUrlPasswords("https://host/a:b@c"), "https://host/a:b@c");
  EXPECT_EQ(RedactUrlPasswords("https://user@host/f"), "https://user@host/f");  // no password
  EXPECT_EQ(RedactUrlPasswords("/data/B04.tif"), "/data/B04.tif");
  EXPECT_EQ(RedactUrlPasswords("http://"), "http://");
  EXPECT_EQ(RedactUrlPasswords("'http://u:p@h'"), "'http://u:***@h'");
}

TEST(UrlRedactionTest, AStatusNamesItsFileWithoutThePassword) {
  const Status st = Status::IOError("cannot open").WithFile("/vsicurl/http://u:hunter2@127.0.0.1:9/x.tif");
  EXPECT_EQ(st.context().file, "/vsicurl/http://u:***@127.0.0.1:9/x.tif");
  EXPECT_EQ(st.ToString().find("hunter2"), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace recflow
