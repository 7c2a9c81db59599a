// ResolveRemoteAccess: which endpoint and credentials GDAL 3.6 uses for a /vsis3/, /vsigs/ or /vsicurl/ dataset, found as GDAL finds them, without a request and without the secret.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "recflow/raster/gdal_env.h"

namespace recflow::raster {

/// The endpoint and credentials of a remote GDAL dataset, as `recflow inspect` reports them.
/// Nothing here is a secret: the secret key, session token, password or refresh token is never
/// kept, only where it comes from.
struct RemoteAccess {
  std::string service;          ///< "s3", "gs" or "http"
  std::string endpoint;         ///< host[:port] (s3), URL prefix (gs) or scheme://host[:port] (http)
  std::string endpoint_source;  ///< "default", "option", "environment" or "URL"
  bool https = true;
  bool virtual_hosting = false;  ///< s3: bucket.endpoint rather than endpoint/bucket
  std::string region;            ///< s3 only
  std::string region_source;     ///< "default", "option", "environment", "config file (profile P)"
  /// Where the credentials come from: "option" (--config / a step's `config`), "environment",
  /// "file (profile P)", "config file (profile P)", "assumed role R (profile P)", "web identity
  /// (role R)", "service account file", "instance metadata (not queried)", "none (X_NO_SIGN_REQUEST)",
  /// "none" (http without any).
  std::string credentials;
  std::string key_id;           ///< access key id, HTTP user or service account e-mail; empty when unknown
  std::string credentials_file;  ///< the file read for them, when one is
  bool session_token = false;    ///< s3: a session token goes with the key
};

/// An environment lookup: the value of a variable, nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

/// The process environment (getenv).
std::optional<std::string> ProcessEnv(const std::string& name);

/// How GDAL 3.6 reaches `dataset` when `config` is set as its configuration (options win over the
/// environment `env`): for /vsis3/ AWS_NO_SIGN_REQUEST, then AWS_SECRET_ACCESS_KEY/AWS_ACCESS_KEY_ID,
/// then the profile (AWS_DEFAULT_PROFILE, AWS_PROFILE or "default") in CPL_AWS_CREDENTIALS_FILE or
/// ~/.aws/credentials and AWS_CONFIG_FILE or ~/.aws/config (keys, region, role_arn/source_profile),
/// then AWS_ROLE_ARN with AWS_WEB_IDENTITY_TOKEN_FILE, then the instance metadata; for /vsigs/
/// GS_NO_SIGN_REQUEST, GS_SECRET_ACCESS_KEY/GS_ACCESS_KEY_ID, GS_OAUTH2_REFRESH_TOKEN,
/// GOOGLE_APPLICATION_CREDENTIALS, CPL_GS_CREDENTIALS_FILE or ~/.boto, then the instance metadata;
/// for /vsicurl/ GDAL_HTTP_USERPWD, a user in the URL or GDAL_HTTP_HEADER_FILE. Reads only those
/// files; makes no request. nullopt when `dataset` goes through none of these file systems.
std::optional<RemoteAccess> ResolveRemoteAccess(const std::string& dataset, const GdalConfig& config,
                                                const EnvLookup& env = ProcessEnv);

}  // namespace recflow::raster
