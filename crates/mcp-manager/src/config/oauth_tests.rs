//! The `oauth` object of a server entry.

use super::*;

fn parse(text: &str) -> McpConfig {
    McpConfig::from_str(text, "test.json").unwrap()
}

#[test]
fn every_member_is_read_with_claude_code_names() {
    let config = parse(
        r#"{"mcpServers": {"r": {"url": "https://example.com/mcp", "oauth": {
            "clientId": "cid", "clientSecret": "${SECRET}", "callbackPort": 8765,
            "authServerMetadataUrl": "https://auth.example.com/.well-known/oauth-authorization-server",
            "scopes": "read  write", "clientMetadataUrl": "https://app.example/client.json",
            "grant": "authorization_code", "privateKeyFile": "${HOME}/key.pem"}}}}"#,
    );
    assert!(config.errors().is_empty(), "{:?}", config.errors());
    let entry = &config.servers()["r"];
    let oauth = entry.oauth.as_ref().unwrap();
    assert_eq!(oauth.client_id.as_deref(), Some("cid"));
    assert_eq!(oauth.callback_port, Some(8765));
    assert_eq!(oauth.scopes, ["read", "write"]);
    assert_eq!(oauth.grant, OAuthGrant::AuthorizationCode);
    assert_eq!(
        oauth.client_secret.as_deref(),
        Some("${SECRET}"),
        "unexpanded until resolve"
    );
    let env = |name: &str| match name {
        "SECRET" => Some("sk-very-secret".to_owned()),
        "HOME" => Some("/home/ann".to_owned()),
        _ => None,
    };
    let resolved = entry.resolve_oauth(&env).unwrap().unwrap();
    assert_eq!(resolved.client_secret.as_deref(), Some("sk-very-secret"));
    assert_eq!(
        resolved.private_key_file.as_deref(),
        Some(std::path::Path::new("/home/ann/key.pem"))
    );
    assert!(!format!("{resolved:?}").contains("sk-very-secret"));
    assert!(!format!("{entry:?}").contains("SECRET"));
    let missing = entry.resolve_oauth(&|_| None).unwrap_err();
    assert!(
        matches!(&missing, ConfigError::MissingVariable { field, variable, .. }
            if field == "oauth.clientSecret" && variable == "SECRET"),
        "{missing:?}"
    );
}

#[test]
fn client_credentials_need_a_client_and_a_credential() {
    let config = parse(
        r#"{"mcpServers": {
            "ok": {"url": "https://e.example/mcp", "oauth": {"grant": "client_credentials", "clientId": "a", "clientSecret": "b"}},
            "jwt": {"url": "https://e.example/mcp", "oauth": {"grant": "client_credentials", "clientId": "a", "privateKeyFile": "k.pem"}},
            "bare": {"url": "https://e.example/mcp", "oauth": {"grant": "client_credentials", "clientId": "a"}}
        }}"#,
    );
    assert_eq!(
        config.servers()["ok"].oauth.as_ref().unwrap().grant,
        OAuthGrant::ClientCredentials
    );
    assert!(config.servers().contains_key("jwt"));
    let err = config.error_for("bare").unwrap().to_string();
    assert!(
        err.contains("oauth.grant") && err.contains("clientSecret or privateKeyFile"),
        "{err}"
    );
}

#[test]
fn the_jwt_bearer_grant_needs_a_client_and_its_token_file_and_dpop_is_a_flag() {
    let config = parse(
        r#"{"mcpServers": {
            "ok": {"url": "https://e.example/mcp", "oauth": {"grant": "jwt_bearer", "clientId": "w", "assertionFile": "${TOKEN_DIR}/token", "dpop": true}},
            "bare": {"url": "https://e.example/mcp", "oauth": {"grant": "jwt_bearer", "clientId": "w"}},
            "flag": {"url": "https://e.example/mcp", "oauth": {"dpop": "yes"}}
        }}"#,
    );
    let ok = config.servers()["ok"].oauth.as_ref().unwrap();
    assert_eq!(ok.grant, OAuthGrant::JwtBearer);
    assert!(ok.dpop);
    let env = |name: &str| (name == "TOKEN_DIR").then(|| "/var/run/secrets".to_owned());
    let resolved = config.servers()["ok"].resolve_oauth(&env).unwrap().unwrap();
    assert_eq!(
        resolved.assertion_file.as_deref(),
        Some(std::path::Path::new("/var/run/secrets/token"))
    );
    let err = config.error_for("bare").unwrap().to_string();
    assert!(
        err.contains("oauth.grant") && err.contains("clientId and assertionFile"),
        "{err}"
    );
    let err = config.error_for("flag").unwrap().to_string();
    assert!(err.contains("oauth.dpop"), "{err}");
}

#[test]
fn mistakes_are_typed_and_placed_and_hide_the_secret() {
    let text = r#"{"mcpServers": {
  "port": {"url": "https://e.example/mcp", "oauth": {"callbackPort": "8080"}},
  "zero": {"url": "https://e.example/mcp", "oauth": {"callbackPort": 0}},
  "http": {"url": "https://e.example/mcp", "oauth": {"authServerMetadataUrl": "http://auth.example"}},
  "cimd": {"url": "https://e.example/mcp", "oauth": {"clientMetadataUrl": "client.json"}},
  "grant": {"url": "https://e.example/mcp", "oauth": {"grant": "password"}},
  "typo": {"url": "https://e.example/mcp", "oauth": {"clientID": "x"}},
  "secret": {"url": "https://e.example/mcp", "oauth": {"clientSecret": 12345678}},
  "reference": {"url": "https://e.example/mcp", "oauth": {"clientSecret": "${command:pw}"}},
  "shape": {"url": "https://e.example/mcp", "oauth": "yes"}
}}"#;
    let config = parse(text);
    assert!(config.servers().is_empty(), "{:?}", config.servers().keys());
    let field_of = |name: &str| match config.error_for(name).unwrap() {
        ConfigError::InvalidEntry {
            field, position, ..
        } => (field.clone().unwrap_or_default(), position.line),
        other => panic!("{other:?}"),
    };
    assert_eq!(field_of("port"), ("oauth.callbackPort".to_owned(), 2));
    assert_eq!(field_of("zero"), ("oauth.callbackPort".to_owned(), 3));
    assert_eq!(
        field_of("http"),
        ("oauth.authServerMetadataUrl".to_owned(), 4)
    );
    assert_eq!(field_of("cimd"), ("oauth.clientMetadataUrl".to_owned(), 5));
    assert_eq!(field_of("grant"), ("oauth.grant".to_owned(), 6));
    assert_eq!(field_of("typo"), ("oauth.clientID".to_owned(), 7));
    assert_eq!(field_of("secret"), ("oauth.clientSecret".to_owned(), 8));
    assert_eq!(field_of("reference"), ("oauth.clientSecret".to_owned(), 9));
    assert_eq!(field_of("shape"), ("oauth".to_owned(), 10));
    let msg = |name: &str| config.error_for(name).unwrap().to_string();
    assert!(msg("http").contains("https"), "{}", msg("http"));
    assert!(msg("typo").contains("clientId"), "{}", msg("typo"));
    assert!(!msg("secret").contains("12345678"), "{}", msg("secret"));
    assert!(
        msg("grant").contains("client_credentials"),
        "{}",
        msg("grant")
    );
    assert!(msg("port").starts_with("test.json:2:"), "{}", msg("port"));
}

#[test]
fn an_expanded_url_is_checked_again() {
    let config = parse(
        r#"{"mcpServers": {"r": {"url": "https://e.example/mcp",
            "oauth": {"authServerMetadataUrl": "${AS_URL}"}}}}"#,
    );
    let entry = &config.servers()["r"];
    let env = |v: &'static str| move |_: &str| Some(v.to_owned());
    assert!(entry.resolve_oauth(&env("https://as.example/m")).is_ok());
    let err = entry
        .resolve_oauth(&env("http://as.example/m"))
        .unwrap_err();
    assert!(err.to_string().contains("https"), "{err}");
    assert!(!err.to_string().contains("as.example"), "{err}");
}
