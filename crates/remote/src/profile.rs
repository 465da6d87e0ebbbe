//! The AWS shared configuration files, as the AWS CLI and SDKs read them:
//! a named profile's static keys and region from `~/.aws/credentials`
//! (`[NAME]`) and `~/.aws/config` (`[profile NAME]`, or `[default]`).
//!
//! object_store takes credentials from the environment, web identity, the
//! container and the instance metadata service, but not from these files;
//! this fills the gap with the same precedence as the AWS tools: the
//! environment's keys first, then the profile's, then object_store's
//! chain. Only reading is done here: signing stays object_store's.

use std::path::PathBuf;

/// What a profile gives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    /// `aws_access_key_id`.
    pub access_key_id: Option<String>,
    /// `aws_secret_access_key`.
    pub secret_access_key: Option<String>,
    /// `aws_session_token`.
    pub session_token: Option<String>,
    /// `region`.
    pub region: Option<String>,
}

/// The profile named by `AWS_PROFILE` (or `AWS_DEFAULT_PROFILE`, else
/// `default`) in the files named by `AWS_SHARED_CREDENTIALS_FILE` and
/// `AWS_CONFIG_FILE` (else under `~/.aws/`); the credentials file wins
/// where both set a key. Missing files give an empty profile.
pub fn from_files() -> Profile {
    let name = std::env::var("AWS_PROFILE")
        .or_else(|_| std::env::var("AWS_DEFAULT_PROFILE"))
        .unwrap_or_else(|_| "default".to_owned());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let file = |var: &str, default: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(".aws").join(default)))
    };
    let read = |p: Option<PathBuf>| p.and_then(|p| std::fs::read_to_string(p).ok());
    let credentials = read(file("AWS_SHARED_CREDENTIALS_FILE", "credentials")).unwrap_or_default();
    let config = read(file("AWS_CONFIG_FILE", "config")).unwrap_or_default();
    let mut profile = section(&config, &name, true);
    let keys = section(&credentials, &name, false);
    profile.access_key_id = keys.access_key_id.or(profile.access_key_id);
    profile.secret_access_key = keys.secret_access_key.or(profile.secret_access_key);
    profile.session_token = keys.session_token.or(profile.session_token);
    profile.region = keys.region.or(profile.region);
    profile
}

/// The keys of the section for profile `name` in an INI `text`: `[name]`
/// in the credentials file; `[profile name]` (or `[default]`) in the
/// config file.
fn section(text: &str, name: &str, config_file: bool) -> Profile {
    let mut out = Profile::default();
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let header = header.trim();
            inside = if config_file && name != "default" {
                header.strip_prefix("profile").is_some_and(|rest| {
                    rest.starts_with(char::is_whitespace) && rest.trim() == name
                })
            } else {
                header == name || (config_file && header == "profile default")
            };
            continue;
        }
        if !inside {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = Some(value.trim().to_owned());
        match key.trim() {
            "aws_access_key_id" => out.access_key_id = value,
            "aws_secret_access_key" => out.secret_access_key = value,
            "aws_session_token" => out.session_token = value,
            "region" => out.region = value,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_read_as_the_aws_tools_read_them() {
        let credentials = "[default]\naws_access_key_id = AKDEFAULT\naws_secret_access_key=sd\n\n[crawl]\n# a comment\naws_access_key_id = AKCRAWL\naws_secret_access_key = sc\naws_session_token = tok\n";
        let config = "[default]\nregion = us-east-1\n[profile crawl]\nregion = eu-west-1\n[profile crawler]\nregion = x\n";
        let crawl = section(credentials, "crawl", false);
        assert_eq!(crawl.access_key_id.as_deref(), Some("AKCRAWL"));
        assert_eq!(crawl.session_token.as_deref(), Some("tok"));
        assert_eq!(
            section(config, "crawl", true).region.as_deref(),
            Some("eu-west-1")
        );
        assert_eq!(
            section(config, "default", true).region.as_deref(),
            Some("us-east-1")
        );
        assert_eq!(
            section(credentials, "default", false)
                .secret_access_key
                .as_deref(),
            Some("sd")
        );
        assert_eq!(section(credentials, "none", false), Profile::default());
    }
}
