//! `--oauth`: discovery, registration, authorization with PKCE, tokens, refresh, expiry,
//! step-up and client credentials, driven with plain HTTP requests.

use std::collections::HashMap;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use bytes::Bytes;
use http_body_util::Full;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::common::*;

const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-more-entropy";
const REDIRECT: &str = "http://127.0.0.1:1/callback";

async fn oauth(flags: &[&str]) -> Running {
    let mut all = vec!["--http", "127.0.0.1:0", "--oauth"];
    all.extend_from_slice(flags);
    Running::start(&all).await
}

fn challenge_of(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn query(pairs: &[(&str, &str)]) -> String {
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        out.append_pair(k, v);
    }
    out.finish()
}

impl Running {
    fn base(&self) -> String {
        format!("http://{}", self.authority)
    }

    async fn get_json(&self, path: &str) -> (u16, Value) {
        let response = self
            .send(self.request("GET", path).body(Full::default()).unwrap())
            .await;
        let status = response.status().as_u16();
        (status, json_body(response).await)
    }

    /// Register a public client with `redirect_uris`; returns its id.
    async fn register_public(&self) -> String {
        let body = json!({"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none", "client_name": "t"});
        let response = self
            .send(
                self.request("POST", "/register")
                    .header("content-type", "application/json")
                    .body(Full::new(Bytes::from(body.to_string())))
                    .unwrap(),
            )
            .await;
        assert_eq!(response.status(), 201);
        let answer = json_body(response).await;
        assert!(answer.get("client_secret").is_none(), "{answer}");
        answer["client_id"].as_str().unwrap().to_owned()
    }

    /// GET /authorize with these parameters; the status and the redirect's query.
    async fn authorize(&self, pairs: &[(&str, &str)]) -> (u16, HashMap<String, String>) {
        let path = format!("/authorize?{}", query(pairs));
        let response = self
            .send(self.request("GET", &path).body(Full::default()).unwrap())
            .await;
        let status = response.status().as_u16();
        let location = header(&response, "location").unwrap_or_default();
        let params = url::Url::parse(&location)
            .map(|u| u.query_pairs().into_owned().collect())
            .unwrap_or_default();
        (status, params)
    }

    /// A code for `client` with `scope` (the defaults when empty).
    async fn code(&self, client: &str, scope: &str) -> String {
        let resource = self.url.clone();
        let challenge = challenge_of(VERIFIER);
        let mut pairs = vec![
            ("response_type", "code"),
            ("client_id", client),
            ("redirect_uri", REDIRECT),
            ("code_challenge", challenge.as_str()),
            ("code_challenge_method", "S256"),
            ("state", "st4te"),
            ("resource", resource.as_str()),
        ];
        if !scope.is_empty() {
            pairs.push(("scope", scope));
        }
        let (status, params) = self.authorize(&pairs).await;
        assert_eq!(status, 302, "{params:?}");
        assert_eq!(params["state"], "st4te");
        assert_eq!(params["iss"], self.base());
        params["code"].clone()
    }

    async fn token(&self, form: &[(&str, &str)], basic: Option<(&str, &str)>) -> (u16, Value) {
        let mut builder = self
            .request("POST", "/token")
            .header("content-type", "application/x-www-form-urlencoded");
        if let Some((id, secret)) = basic {
            builder = builder.header(
                "authorization",
                format!("Basic {}", STANDARD.encode(format!("{id}:{secret}"))),
            );
        }
        let response = self
            .send(builder.body(Full::new(Bytes::from(query(form)))).unwrap())
            .await;
        assert_eq!(
            header(&response, "cache-control").as_deref(),
            Some("no-store")
        );
        let status = response.status().as_u16();
        (status, json_body(response).await)
    }

    async fn exchange(&self, client: &str, code: &str) -> (u16, Value) {
        let resource = self.url.clone();
        self.token(
            &[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("redirect_uri", REDIRECT),
                ("code_verifier", VERIFIER),
                ("client_id", client),
                ("resource", &resource),
            ],
            None,
        )
        .await
    }

    async fn status_with(&self, token: &str, body: &Value) -> (u16, Option<String>) {
        let bearer = format!("Bearer {token}");
        let response = self.post(body, &[("authorization", &bearer)]).await;
        (
            response.status().as_u16(),
            header(&response, "www-authenticate"),
        )
    }
}

#[tokio::test]
async fn discovery_starts_from_the_401_challenge() {
    let server = oauth(&["--oauth-scopes", "read write"]).await;
    let refused = server.post(&initialize_request(1, json!({})), &[]).await;
    assert_eq!(refused.status(), 401);
    let challenge = header(&refused, "www-authenticate").unwrap();
    let prm_path = "/.well-known/oauth-protected-resource/mcp";
    assert_eq!(
        challenge,
        format!(
            "Bearer resource_metadata=\"{}{prm_path}\", scope=\"read write\"",
            server.base()
        )
    );
    let (status, prm) = server.get_json(prm_path).await;
    assert_eq!(status, 200);
    assert_eq!(prm["resource"], server.url);
    assert_eq!(prm["authorization_servers"], json!([server.base()]));
    assert_eq!(
        prm["scopes_supported"],
        json!(["read", "write", "mcp:admin", "offline_access"])
    );
    let (status, asm) = server
        .get_json("/.well-known/oauth-authorization-server")
        .await;
    assert_eq!(status, 200);
    assert_eq!(asm["issuer"], server.base());
    assert_eq!(asm["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(asm["authorization_response_iss_parameter_supported"], true);
    assert_eq!(asm["client_id_metadata_document_supported"], false);
    assert_eq!(
        asm["registration_endpoint"],
        format!("{}/register", server.base())
    );
    assert_eq!(asm["token_endpoint"], format!("{}/token", server.base()));
}

#[tokio::test]
async fn the_code_flow_with_pkce_gives_a_token_the_endpoint_accepts_and_refresh_rotates() {
    let server = oauth(&[]).await;
    let client = server.register_public().await;
    // A wrong verifier burns the code.
    let code = server.code(&client, "").await;
    let resource = server.url.clone();
    let wrong = "x".repeat(43);
    let (status, refused) = server
        .token(
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", REDIRECT),
                ("code_verifier", &wrong),
                ("client_id", &client),
                ("resource", &resource),
            ],
            None,
        )
        .await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (400, Some("invalid_grant"))
    );
    assert_eq!(
        server.exchange(&client, &code).await.0,
        400,
        "codes are single-use"
    );

    let code = server.code(&client, "").await;
    let (status, tokens) = server.exchange(&client, &code).await;
    assert_eq!(status, 200, "{tokens}");
    assert_eq!(tokens["token_type"], "Bearer");
    assert_eq!(tokens["scope"], "mcp:read mcp:write");
    assert_eq!(tokens["expires_in"], 3600);
    let access = tokens["access_token"].as_str().unwrap();
    let (status, _) = server
        .status_with(access, &initialize_request(1, json!({})))
        .await;
    assert_eq!(status, 200);
    let (status, challenge) = server
        .status_with("made-up", &initialize_request(1, json!({})))
        .await;
    assert_eq!(status, 401);
    assert!(challenge.unwrap().contains("error=\"invalid_token\""));

    let old_refresh = tokens["refresh_token"].as_str().unwrap();
    let refresh = [
        ("grant_type", "refresh_token"),
        ("refresh_token", old_refresh),
        ("client_id", client.as_str()),
    ];
    let (status, renewed) = server.token(&refresh, None).await;
    assert_eq!(status, 200, "{renewed}");
    assert_ne!(renewed["refresh_token"], tokens["refresh_token"]);
    let (status, again) = server.token(&refresh, None).await;
    assert_eq!(
        (status, again["error"].as_str()),
        (400, Some("invalid_grant"))
    );
    let (status, _) = server
        .status_with(
            renewed["access_token"].as_str().unwrap(),
            &initialize_request(1, json!({})),
        )
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn authorize_checks_client_redirect_pkce_and_resource() {
    let server = oauth(&[]).await;
    let client = server.register_public().await;
    let challenge = challenge_of(VERIFIER);
    let resource = server.url.clone();
    let good = |over: &[(&'static str, &'static str)]| {
        let mut pairs: Vec<(&str, String)> = vec![
            ("response_type", "code".into()),
            ("client_id", client.clone()),
            ("redirect_uri", REDIRECT.into()),
            ("code_challenge", challenge.clone()),
            ("code_challenge_method", "S256".into()),
            ("state", "s".into()),
            ("resource", resource.clone()),
        ];
        for (k, v) in over {
            pairs.retain(|(name, _)| name != k);
            if !v.is_empty() {
                pairs.push((k, (*v).to_owned()));
            }
        }
        pairs
    };
    let run = |pairs: Vec<(&'static str, String)>| {
        let server = &server;
        async move {
            let borrowed: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
            server.authorize(&borrowed).await
        }
    };
    // Another port on loopback is the same redirect URI (RFC 8252).
    let (status, params) = run(good(&[("redirect_uri", "http://127.0.0.1:4242/callback")])).await;
    assert!(status == 302 && params.contains_key("code"), "{params:?}");
    // Client and redirect errors never redirect.
    assert_eq!(run(good(&[("client_id", "nobody")])).await.0, 400);
    assert_eq!(
        run(good(&[("redirect_uri", "http://127.0.0.1:1/elsewhere")]))
            .await
            .0,
        400
    );
    assert_eq!(
        run(good(&[("redirect_uri", "https://evil.example/callback")]))
            .await
            .0,
        400
    );
    // The rest comes back to the client as an error with its state.
    for (over, error) in [
        (("code_challenge_method", "plain"), "invalid_request"),
        (("code_challenge", ""), "invalid_request"),
        (("resource", ""), "invalid_target"),
        (("resource", "http://127.0.0.1:1/mcp"), "invalid_target"),
        (("scope", "root"), "invalid_scope"),
        (("response_type", "token"), "unsupported_response_type"),
    ] {
        let (status, params) = run(good(&[over])).await;
        assert_eq!(status, 302, "{over:?}");
        assert_eq!(params["error"], error, "{over:?}");
        assert_eq!(params["state"], "s");
        assert!(!params.contains_key("code"));
    }
}

#[tokio::test]
async fn access_tokens_expire() {
    let server = oauth(&["--oauth-token-ttl", "1"]).await;
    let client = server.register_public().await;
    let code = server.code(&client, "").await;
    let (_, tokens) = server.exchange(&client, &code).await;
    assert_eq!(tokens["expires_in"], 1);
    let access = tokens["access_token"].as_str().unwrap();
    assert_eq!(
        server
            .status_with(access, &initialize_request(1, json!({})))
            .await
            .0,
        200
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (status, challenge) = server
        .status_with(access, &initialize_request(1, json!({})))
        .await;
    assert_eq!(status, 401);
    assert!(
        challenge
            .unwrap()
            .starts_with("Bearer error=\"invalid_token\"")
    );
}

#[tokio::test]
async fn the_step_up_tool_needs_the_extra_scope() {
    let server = oauth(&["--oauth-step-up-tool", "add"]).await;
    let client = server.register_public().await;
    let code = server.code(&client, "").await;
    let (_, tokens) = server.exchange(&client, &code).await;
    let access = tokens["access_token"].as_str().unwrap().to_owned();
    let bearer = format!("Bearer {access}");
    let response = server
        .post(
            &initialize_request(1, json!({})),
            &[("authorization", &bearer)],
        )
        .await;
    let session = header(&response, "mcp-session-id").unwrap();
    let headers = |token: &str| {
        vec![
            ("mcp-session-id".to_owned(), session.clone()),
            ("mcp-protocol-version".to_owned(), "2025-11-25".to_owned()),
            ("authorization".to_owned(), format!("Bearer {token}")),
        ]
    };
    let send = |token: String, body: Value| {
        let server = &server;
        let headers = headers(&token);
        async move {
            let borrowed: Vec<(&str, &str)> = headers
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            server.post(&body, &borrowed).await
        }
    };
    let echo = send(access.clone(), call(2, "echo", json!({"text": "hi"}))).await;
    assert_eq!(echo.status(), 200);
    let refused = send(access.clone(), call(3, "add", json!({"a": 1, "b": 2}))).await;
    assert_eq!(refused.status(), 403);
    assert_eq!(
        header(&refused, "www-authenticate").unwrap(),
        format!(
            "Bearer error=\"insufficient_scope\", resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:read mcp:write mcp:admin\"",
            server.base()
        )
    );
    let code = server.code(&client, "mcp:read mcp:write mcp:admin").await;
    let (_, wider) = server.exchange(&client, &code).await;
    let allowed = send(
        wider["access_token"].as_str().unwrap().to_owned(),
        call(4, "add", json!({"a": 1, "b": 2})),
    )
    .await;
    assert_eq!(allowed.status(), 200);
}

#[tokio::test]
async fn client_credentials_need_the_pre_registered_secret() {
    let server = oauth(&["--oauth-client", "robot:s3cret", "--oauth-no-dcr"]).await;
    let (_, asm) = server
        .get_json("/.well-known/oauth-authorization-server")
        .await;
    assert!(asm.get("registration_endpoint").is_none());
    let register = server
        .send(
            server
                .request("POST", "/register")
                .body(Full::default())
                .unwrap(),
        )
        .await;
    assert_eq!(register.status(), 404);
    let resource = server.url.clone();
    let form = [
        ("grant_type", "client_credentials"),
        ("resource", resource.as_str()),
    ];
    let (status, refused) = server.token(&form, Some(("robot", "wrong"))).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (401, Some("invalid_client"))
    );
    let (status, tokens) = server.token(&form, Some(("robot", "s3cret"))).await;
    assert_eq!(status, 200, "{tokens}");
    assert!(tokens.get("refresh_token").is_none());
    let mut with_post = form.to_vec();
    with_post.extend([("client_id", "robot"), ("client_secret", "s3cret")]);
    assert_eq!(server.token(&with_post, None).await.0, 200);
    let (status, _) = server
        .status_with(
            tokens["access_token"].as_str().unwrap(),
            &initialize_request(1, json!({})),
        )
        .await;
    assert_eq!(status, 200);
}

/// Serve `document` at `http://127.0.0.1:PORT/client.json` (a `{URL}` in it becomes the
/// URL) for as long as the handle lives; returns the URL.
async fn serve_document(document: &str) -> (String, AbortOnDrop) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/client.json", listener.local_addr().unwrap());
    let body = document.replace("{URL}", &url);
    let task = tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).await.unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let reply = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(reply.as_bytes()).await;
            let _ = stream.shutdown().await;
        }
    });
    (url, AbortOnDrop(task))
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[tokio::test]
async fn metadata_documents_are_fetched_and_their_redirect_uris_enforced() {
    let server = oauth(&["--oauth-cimd", "--oauth-no-dcr"]).await;
    let (_, asm) = server
        .get_json("/.well-known/oauth-authorization-server")
        .await;
    assert_eq!(asm["client_id_metadata_document_supported"], true);
    let (client, _doc) = serve_document(
        r#"{"client_id": "{URL}", "client_name": "t", "redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "none"}"#,
    )
    .await;
    // REDIRECT is a loopback URI on another port: allowed (RFC 8252 §7.3).
    let code = server.code(&client, "").await;
    let (status, tokens) = server.exchange(&client, &code).await;
    assert_eq!(status, 200, "{tokens}");

    // A redirect URI the document does not list: a 400, not a redirect.
    let challenge = challenge_of(VERIFIER);
    let resource = server.url.clone();
    let pairs = |redirect: &'static str| {
        vec![
            ("response_type", "code"),
            ("client_id", client.as_str()),
            ("redirect_uri", redirect),
            ("code_challenge", challenge.as_str()),
            ("code_challenge_method", "S256"),
            ("resource", resource.as_str()),
        ]
    };
    let (status, _) = server
        .authorize(&pairs("http://127.0.0.1:1/elsewhere"))
        .await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn metadata_documents_that_do_not_check_out_are_refused() {
    let server = oauth(&["--oauth-cimd"]).await;
    let (other, _doc) = serve_document(
        r#"{"client_id": "https://app.example/client.json", "client_name": "t", "redirect_uris": ["http://127.0.0.1/callback"]}"#,
    )
    .await;
    let challenge = challenge_of(VERIFIER);
    let resource = server.url.clone();
    let refused = |client: String| {
        let (challenge, resource) = (challenge.clone(), resource.clone());
        let server = &server;
        async move {
            let path = format!(
                "/authorize?{}",
                query(&[
                    ("response_type", "code"),
                    ("client_id", &client),
                    ("redirect_uri", REDIRECT),
                    ("code_challenge", &challenge),
                    ("code_challenge_method", "S256"),
                    ("resource", &resource),
                ])
            );
            let response = server
                .send(server.request("GET", &path).body(Full::default()).unwrap())
                .await;
            assert_eq!(response.status(), 400);
            assert!(header(&response, "location").is_none());
            text_body(response).await
        }
    };
    let mismatch = refused(other).await;
    assert!(mismatch.contains("is not its URL"), "{mismatch}");
    // https:// cannot be fetched here (no TLS client): refused, never trusted unchecked.
    let https = refused("https://app.example/client.json".to_owned()).await;
    assert!(https.contains("no TLS client"), "{https}");
    // Nothing listens: refused too, bounded.
    let gone = refused("http://127.0.0.1:1/client.json".to_owned()).await;
    assert!(gone.contains("failed"), "{gone}");
    // Not the token endpoint either.
    let (status, _) = server
        .exchange("https://app.example/client.json", "code")
        .await;
    assert_eq!(status, 401);
}

#[test]
fn oauth_flags_need_http() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-test-server"))
        .args(["--oauth"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
