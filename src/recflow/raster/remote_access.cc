// ResolveRemoteAccess: GDAL 3.6's credential chains of /vsis3/ (cpl_aws), /vsigs/ (cpl_google_cloud) and /vsicurl/ followed over options, environment and the credential files; secrets are looked at, never kept.
#include "recflow/raster/remote_access.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <utility>

namespace recflow::raster {
namespace {

/// A configuration value and where it came from.
struct Found {
  std::string value;
  std::string source;  // "option" or "environment"
};

/// GDAL's view of its options: a thread-local option (the last one set) before the environment.
class Options {
 public:
  Options(const GdalConfig& config, const EnvLookup& env) : config_(config), env_(env) {}

  /// The value of `key` when it is set and not empty (GDAL takes an empty value as unset).
  std::optional<Found> Get(const std::string& key) const {
    for (auto it = config_.rbegin(); it != config_.rend(); ++it) {
      if (it->first == key) {
        if (it->second.empty()) return std::nullopt;
        return Found{it->second, "option"};
      }
    }
    std::optional<std::string> value = env_(key);
    if (!value || value->empty()) return std::nullopt;
    return Found{*value, "environment"};
  }

  std::string Value(const std::string& key, const std::string& fallback) const {
    const std::optional<Found> found = Get(key);
    return found ? found->value : fallback;
  }

  /// CPLTestBool: false for NO, FALSE, OFF and 0 (any case), true for anything else.
  bool Bool(const std::string& key, bool fallback) const {
    const std::optional<Found> found = Get(key);
    if (!found) return fallback;
    std::string v = found->value;
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::toupper(c); });
    return !(v == "NO" || v == "FALSE" || v == "OFF" || v == "0");
  }

  /// The user's home directory as GDAL finds it (HOME, an option or the environment).
  std::string Home() const { return Value("HOME", ""); }

 private:
  const GdalConfig& config_;
  const EnvLookup& env_;
};

std::string Trim(std::string s) {
  const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), space));
  s.erase(std::find_if_not(s.rbegin(), s.rend(), space).base(), s.end());
  return s;
}

/// The `key = value` (or `key: value`) lines of the first section of `path` headed by one of
/// `headers` ("[default]"), keys lower-cased; empty when the file or the section is missing.
std::map<std::string, std::string> ReadSection(const std::string& path, const std::vector<std::string>& headers) {
  std::map<std::string, std::string> values;
  std::ifstream in(path);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line.front() == '[') {
      if (inside) break;
      inside = std::find(headers.begin(), headers.end(), line) != headers.end();
      continue;
    }
    const size_t separator = line.find_first_of("=:");
    if (!inside || separator == std::string::npos) continue;
    std::string key = Trim(line.substr(0, separator));
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
    values.emplace(std::move(key), Trim(line.substr(separator + 1)));
  }
  return values;
}

std::string ValueOf(const std::map<std::string, std::string>& section, const std::string& key) {
  const auto it = section.find(key);
  return it == section.end() ? "" : it->second;
}

constexpr const char* kNotQueried = "instance metadata (not queried)";

void ResolveS3(const std::string& path, const Options& o, RemoteAccess* a) {
  const std::string bucket = path.substr(0, path.find('/'));
  const std::optional<Found> endpoint = o.Get("AWS_S3_ENDPOINT");
  a->endpoint = endpoint ? endpoint->value : "s3.amazonaws.com";
  a->endpoint_source = endpoint ? endpoint->source : "default";
  a->https = o.Bool("AWS_HTTPS", true);
  a->virtual_hosting = o.Bool("AWS_VIRTUAL_HOSTING", bucket.find('.') == std::string::npos);
  const std::optional<Found> region = o.Get("AWS_REGION");
  a->region = region ? region->value : "us-east-1";
  a->region_source = region ? region->source : "default";
  if (o.Bool("AWS_NO_SIGN_REQUEST", false)) {
    a->credentials = "none (AWS_NO_SIGN_REQUEST)";
  } else if (const std::optional<Found> secret = o.Get("AWS_SECRET_ACCESS_KEY")) {
    a->credentials = secret->source;
    a->key_id = o.Value("AWS_ACCESS_KEY_ID", "");
    if (a->key_id.empty()) a->credentials += " (no AWS_ACCESS_KEY_ID: GDAL refuses)";
    a->session_token = o.Get("AWS_SESSION_TOKEN").has_value();
  } else {
    std::string profile = o.Value("AWS_DEFAULT_PROFILE", o.Value("AWS_PROFILE", ""));
    if (profile.empty()) profile = "default";
    const std::string dot_aws = o.Home() + "/.aws/";
    const std::string credentials_path = o.Value("CPL_AWS_CREDENTIALS_FILE", dot_aws + "credentials");
    const std::string config_path = o.Value("AWS_CONFIG_FILE", dot_aws + "config");
    const auto from_credentials = ReadSection(credentials_path, {"[" + profile + "]"});
    const auto from_config = ReadSection(config_path, {"[" + profile + "]", "[profile " + profile + "]"});
    // The credentials file wins over the config file, key by key.
    const auto key = [&](const std::string& name) {
      const std::string value = ValueOf(from_credentials, name);
      return value.empty() ? ValueOf(from_config, name) : value;
    };
    if (!ValueOf(from_config, "region").empty()) {
      a->region = ValueOf(from_config, "region");
      a->region_source = "config file (profile " + profile + ")";
    }
    const std::string role = ValueOf(from_config, "role_arn");
    if (!key("aws_access_key_id").empty() && !key("aws_secret_access_key").empty()) {
      const bool in_credentials = !ValueOf(from_credentials, "aws_secret_access_key").empty();
      a->credentials = (in_credentials ? "file (profile " : "config file (profile ") + profile + ")";
      a->credentials_file = in_credentials ? credentials_path : config_path;
      a->key_id = key("aws_access_key_id");
      a->session_token = !key("aws_session_token").empty();
    } else if (!role.empty() && !ValueOf(from_config, "source_profile").empty()) {
      a->credentials = "assumed role " + role + " (profile " + profile + ", source profile " +
                       ValueOf(from_config, "source_profile") + ")";
      a->credentials_file = config_path;
    } else if (o.Bool("CPL_AWS_WEB_IDENTITY_ENABLE", true) && o.Get("AWS_ROLE_ARN") &&
               o.Get("AWS_WEB_IDENTITY_TOKEN_FILE")) {
      a->credentials = "web identity (role " + o.Value("AWS_ROLE_ARN", "") + ")";
      a->credentials_file = o.Value("AWS_WEB_IDENTITY_TOKEN_FILE", "");
    } else {
      a->credentials = kNotQueried;
    }
  }
  if (const std::optional<Found> default_region = o.Get("AWS_DEFAULT_REGION")) {
    a->region = default_region->value;
    a->region_source = default_region->source;
  }
}

void ResolveGs(const Options& o, RemoteAccess* a) {
  const std::optional<Found> endpoint = o.Get("CPL_GS_ENDPOINT");
  a->endpoint = endpoint ? endpoint->value : "https://storage.googleapis.com/";
  a->endpoint_source = endpoint ? endpoint->source : "default";
  a->https = a->endpoint.rfind("https://", 0) == 0;
  if (o.Bool("GS_NO_SIGN_REQUEST", false)) {
    a->credentials = "none (GS_NO_SIGN_REQUEST)";
  } else if (const std::optional<Found> secret = o.Get("GS_SECRET_ACCESS_KEY")) {
    a->credentials = secret->source;
    a->key_id = o.Value("GS_ACCESS_KEY_ID", "");
  } else if (const std::optional<Found> token = o.Get("GS_OAUTH2_REFRESH_TOKEN")) {
    a->credentials = "OAuth2 refresh token (" + token->source + ")";
  } else if (const std::optional<Found> file = o.Get("GOOGLE_APPLICATION_CREDENTIALS")) {
    a->credentials = "service account file (" + file->source + ")";
    a->credentials_file = file->value;
  } else if ((o.Get("GS_OAUTH2_PRIVATE_KEY") || o.Get("GS_OAUTH2_PRIVATE_KEY_FILE")) &&
             o.Get("GS_OAUTH2_CLIENT_EMAIL")) {
    a->credentials = "OAuth2 private key (" + o.Get("GS_OAUTH2_CLIENT_EMAIL")->source + ")";
    a->key_id = o.Value("GS_OAUTH2_CLIENT_EMAIL", "");
  } else {
    const std::string boto_path = o.Value("CPL_GS_CREDENTIALS_FILE", o.Home() + "/.boto");
    const auto boto = ReadSection(boto_path, {"[Credentials]"});
    if (!ValueOf(boto, "gs_secret_access_key").empty() && !ValueOf(boto, "gs_access_key_id").empty()) {
      a->credentials = "file";
      a->key_id = ValueOf(boto, "gs_access_key_id");
      a->credentials_file = boto_path;
    } else if (!ValueOf(boto, "gs_oauth2_refresh_token").empty()) {
      a->credentials = "file (OAuth2 refresh token)";
      a->credentials_file = boto_path;
    } else {
      a->credentials = kNotQueried;
    }
  }
}

void ResolveHttp(const std::string& url, const Options& o, RemoteAccess* a) {
  const size_t scheme_end = url.find("://");
  const size_t host_begin = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  const size_t host_end = std::min(url.find_first_of("/?#", host_begin), url.size());
  std::string host = url.substr(host_begin, host_end - host_begin);
  std::string user;
  if (const size_t at = host.rfind('@'); at != std::string::npos) {
    user = host.substr(0, std::min(host.find(':'), at));
    host = host.substr(at + 1);
  }
  a->endpoint = url.substr(0, host_begin) + host;
  a->endpoint_source = "URL";
  a->https = url.rfind("https://", 0) == 0;
  if (const std::optional<Found> userpwd = o.Get("GDAL_HTTP_USERPWD")) {
    a->credentials = userpwd->source;
    a->key_id = userpwd->value.substr(0, userpwd->value.find(':'));
  } else if (!user.empty()) {
    a->credentials = "URL";
    a->key_id = user;
  } else if (const std::optional<Found> headers = o.Get("GDAL_HTTP_HEADER_FILE")) {
    a->credentials = "header file (" + headers->source + ")";
    a->credentials_file = headers->value;
  } else {
    a->credentials = "none";
  }
}

}  // namespace

std::optional<std::string> ProcessEnv(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::optional<RemoteAccess> ResolveRemoteAccess(const std::string& dataset, const GdalConfig& config,
                                                const EnvLookup& env) {
  // The first of these file systems in the name (/vsizip//vsis3/... reaches S3).
  static constexpr std::array<std::pair<const char*, const char*>, 6> kPrefixes{{{"/vsis3/", "s3"},
                                                                                  {"/vsis3_streaming/", "s3"},
                                                                                  {"/vsigs/", "gs"},
                                                                                  {"/vsigs_streaming/", "gs"},
                                                                                  {"/vsicurl/", "http"},
                                                                                  {"/vsicurl_streaming/", "http"}}};
  size_t best = std::string::npos;
  const std::pair<const char*, const char*>* found = nullptr;
  for (const auto& prefix : kPrefixes) {
    const size_t at = dataset.find(prefix.first);
    if (at < best) {
      best = at;
      found = &prefix;
    }
  }
  if (found == nullptr) return std::nullopt;
  const std::string rest = dataset.substr(best + std::char_traits<char>::length(found->first));
  const Options options(config, env);
  RemoteAccess access;
  access.service = found->second;
  if (access.service == "s3") {
    ResolveS3(rest, options, &access);
  } else if (access.service == "gs") {
    ResolveGs(options, &access);
  } else {
    ResolveHttp(rest, options, &access);
  }
  return access;
}

}  // namespace recflow::raster
