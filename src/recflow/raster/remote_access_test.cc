// ResolveRemoteAccess: GDAL's order of credential sources for /vsis3/, /vsigs/ and /vsicurl/, over an environment and credential files of the test's.
#include "recflow/raster/remote_access.h"

#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "recflow/testing/testdata.h"

namespace recflow::raster {
namespace {

EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(RemoteAccessTest, LocalFilesAndOtherFileSystemsHaveNone) {
  EXPECT_FALSE(ResolveRemoteAccess("/data/B04.tif", {}, Env({})));
  EXPECT_FALSE(ResolveRemoteAccess("/vsizip/a.zip/B04.tif", {}, Env({})));
}

TEST(RemoteAccessTest, AnOptionWinsOverTheEnvironmentAndTheSecretIsNotKept) {
  const GdalConfig config{{"AWS_SECRET_ACCESS_KEY", "opt-secret"}, {"AWS_ACCESS_KEY_ID", "OPTKEY"},
                          {"AWS_S3_ENDPOINT", "127.0.0.1:9000"}, {"AWS_HTTPS", "no"}};
  const auto a = ResolveRemoteAccess("/vsis3/bands/s2/B04.tif", config,
                                     Env({{"AWS_SECRET_ACCESS_KEY", "env-secret"}, {"AWS_ACCESS_KEY_ID", "ENVKEY"},
                                          {"AWS_VIRTUAL_HOSTING", "FALSE"}, {"AWS_REGION", "eu-west-1"}}));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->service, "s3");
  EXPECT_EQ(a->credentials, "option");
  EXPECT_EQ(a->key_id, "OPTKEY");
  EXPECT_EQ(a->endpoint, "127.0.0.1:9000");
  EXPECT_EQ(a->endpoint_source, "option");
  EXPECT_FALSE(a->https);
  EXPECT_FALSE(a->virtual_hosting);
  EXPECT_EQ(a->region, "eu-west-1");
  EXPECT_EQ(a->region_source, "environment");
  EXPECT_FALSE(a->session_token);
}

TEST(RemoteAccessTest, DefaultsAreAwsOverHttpsWithVirtualHostingUnlessTheBucketHasADot) {
  const auto a = ResolveRemoteAccess("/vsis3/bucket/k.tif", {}, Env({{"AWS_NO_SIGN_REQUEST", "YES"}}));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->credentials, "none (AWS_NO_SIGN_REQUEST)");
  EXPECT_EQ(a->endpoint, "s3.amazonaws.com");
  EXPECT_EQ(a->endpoint_source, "default");
  EXPECT_EQ(a->region, "us-east-1");
  EXPECT_TRUE(a->https);
  EXPECT_TRUE(a->virtual_hosting);
  EXPECT_FALSE(ResolveRemoteAccess("/vsis3/my.bucket/k.tif", {}, Env({}))->virtual_hosting);
}

TEST(RemoteAccessTest, TheProfileOfTheCredentialsFileThenTheConfigFileThenTheInstanceMetadata) {
  testing::ScratchDir home;
  std::filesystem::create_directory(home.path() / ".aws");
  Write(home.File(".aws/credentials"),
        "[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = s1\n"
        "[work]\r\naws_access_key_id=WORKKEY\r\naws_secret_access_key=s2\r\naws_session_token = t\r\n");
  Write(home.File(".aws/config"), "[profile work]\nregion = ap-south-1\n[profile cfg]\naws_access_key_id = CFGKEY\n"
                                  "aws_secret_access_key = s3\n[profile role]\nrole_arn = arn:aws:iam::1:role/r\n"
                                  "source_profile = default\n");
  const std::string dir = home.path().string();
  auto a = ResolveRemoteAccess("/vsis3/b/k", {}, Env({{"HOME", dir}, {"AWS_PROFILE", "work"}}));
  EXPECT_EQ(a->credentials, "file (profile work)");
  EXPECT_EQ(a->key_id, "WORKKEY");
  EXPECT_TRUE(a->session_token);
  EXPECT_EQ(a->credentials_file, dir + "/.aws/credentials");
  EXPECT_EQ(a->region, "ap-south-1");
  EXPECT_EQ(a->region_source, "config file (profile work)");
  // AWS_DEFAULT_PROFILE before AWS_PROFILE; AWS_DEFAULT_REGION over the profile's region.
  a = ResolveRemoteAccess("/vsis3/b/k", {{"AWS_DEFAULT_REGION", "sa-east-1"}},
                          Env({{"HOME", dir}, {"AWS_PROFILE", "work"}, {"AWS_DEFAULT_PROFILE", "default"}}));
  EXPECT_EQ(a->key_id, "DEFAULTKEY");
  EXPECT_EQ(a->region, "sa-east-1");
  EXPECT_EQ(a->region_source, "option");
  a = ResolveRemoteAccess("/vsis3/b/k", {}, Env({{"HOME", dir}, {"AWS_PROFILE", "cfg"}}));
  EXPECT_EQ(a->credentials, "config file (profile cfg)");
  EXPECT_EQ(a->key_id, "CFGKEY");
  a = ResolveRemoteAccess("/vsis3/b/k", {}, Env({{"HOME", dir}, {"AWS_PROFILE", "role"}}));
  EXPECT_EQ(a->credentials, "assumed role arn:aws:iam::1:role/r (profile role, source profile default)");
  EXPECT_EQ(a->key_id, "");
  a = ResolveRemoteAccess("/vsis3/b/k", {}, Env({{"HOME", dir}, {"AWS_PROFILE", "nobody"},
                                                 {"AWS_ROLE_ARN", "arn:r"}, {"AWS_WEB_IDENTITY_TOKEN_FILE", "/t"}}));
  EXPECT_EQ(a->credentials, "web identity (role arn:r)");
  a = ResolveRemoteAccess("/vsis3/b/k", {}, Env({{"HOME", dir}, {"AWS_PROFILE", "nobody"}}));
  EXPECT_EQ(a->credentials, "instance metadata (not queried)");
  // CPL_AWS_CREDENTIALS_FILE names another credentials file.
  Write(home.File("other"), "[default]\naws_access_key_id = OTHERKEY\naws_secret_access_key = s4\n");
  a = ResolveRemoteAccess("/vsis3/b/k", {{"CPL_AWS_CREDENTIALS_FILE", home.File("other")}}, Env({{"HOME", dir}}));
  EXPECT_EQ(a->key_id, "OTHERKEY");
  EXPECT_EQ(a->credentials_file, home.File("other"));
}

TEST(RemoteAccessTest, GoogleCloudStorageKeysServiceAccountsAndTheBotoFile) {
  testing::ScratchDir home;
  Write(home.File(".boto"), "[Credentials]\ngs_access_key_id = GOOGKEY\ngs_secret_access_key = s\n");
  const std::string dir = home.path().string();
  auto a = ResolveRemoteAccess("/vsigs/b/k.tif", {{"GS_SECRET_ACCESS_KEY", "s"}, {"GS_ACCESS_KEY_ID", "HMACKEY"}},
                               Env({{"HOME", dir}}));
  EXPECT_EQ(a->service, "gs");
  EXPECT_EQ(a->endpoint, "https://storage.googleapis.com/");
  EXPECT_EQ(a->credentials, "option");
  EXPECT_EQ(a->key_id, "HMACKEY");
  a = ResolveRemoteAccess("/vsigs/b/k.tif", {}, Env({{"HOME", dir}, {"GOOGLE_APPLICATION_CREDENTIALS", "/sa.json"}}));
  EXPECT_EQ(a->credentials, "service account file (environment)");
  EXPECT_EQ(a->credentials_file, "/sa.json");
  a = ResolveRemoteAccess("/vsigs/b/k.tif", {}, Env({{"HOME", dir}}));
  EXPECT_EQ(a->credentials, "file");
  EXPECT_EQ(a->key_id, "GOOGKEY");
  EXPECT_EQ(ResolveRemoteAccess("/vsigs/b/k.tif", {}, Env({}))->credentials, "instance metadata (not queried)");
  EXPECT_EQ(ResolveRemoteAccess("/vsigs/b/k.tif", {}, Env({{"GS_NO_SIGN_REQUEST", "YES"}}))->credentials,
            "none (GS_NO_SIGN_REQUEST)");
}

TEST(RemoteAccessTest, HttpShowsTheUserNeverThePassword) {
  auto a = ResolveRemoteAccess("/vsicurl/https://alice:pw@host.example:8443/d/B04.tif", {}, Env({}));
  EXPECT_EQ(a->service, "http");
  EXPECT_EQ(a->endpoint, "https://host.example:8443");
  EXPECT_TRUE(a->https);
  EXPECT_EQ(a->credentials, "URL");
  EXPECT_EQ(a->key_id, "alice");
  a = ResolveRemoteAccess("/vsizip//vsicurl/http://h/a.zip/B04.tif", {{"GDAL_HTTP_USERPWD", "bob:pw"}}, Env({}));
  EXPECT_EQ(a->endpoint, "http://h");
  EXPECT_EQ(a->credentials, "option");
  EXPECT_EQ(a->key_id, "bob");
  EXPECT_EQ(ResolveRemoteAccess("/vsicurl/http://h/x.tif", {}, Env({}))->credentials, "none");
}

}  // namespace
}  // namespace recflow::raster
