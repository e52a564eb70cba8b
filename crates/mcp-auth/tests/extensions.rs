//! The auth extensions against a real (small) authorization server, identity provider and
//! protected MCP endpoint on 127.0.0.1, through `mcp-http`'s `HttpSender` like the
//! transports use it: DPoP (proofs, `ath`, nonces), the JWT bearer grant with a workload's
//! JWT, and enterprise-managed authorization (token exchange for an ID-JAG).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use bytes::Bytes;
use http::Request;
use http_body_util::Full;
use mcp_auth::{
    Assertion, AuthError, DpopMode, EnterpriseConfig, Grant, HttpClient, HttpClientOptions,
    OAuthConfig, OAuthProvider, Secret,
};
use mcp_http::{AuthHook, HttpSender};
use ring::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use url::Url;

const WORKLOAD_JWT: &str = "eyJ.workload-SECRET.sig";
const ID_TOKEN: &str = "eyJ.idtoken-SECRET.sig";
const ID_JAG: &str = "eyJ.idjag-SECRET.sig";
const DPOP_TOKEN: &str = "dpop-access-SECRET";
const AS_NONCE: &str = "as-nonce-1";
const RS_NONCE: &str = "rs-nonce-1";
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// What the servers play.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// DPoP with nonces at the token endpoint and the MCP endpoint; the JWT bearer grant.
    Dpop,
    /// The identity provider and the JWT bearer grant with client_secret_basic.
    Enterprise,
    /// The identity provider issues something else than an ID-JAG.
    EnterpriseWrongType,
    /// The token endpoint refuses the workload's JWT.
    WorkloadRefused,
    /// DPoP, but the MCP endpoint refuses even the proofs with its nonce.
    DpopStubborn,
}

/// One request received.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    headers: HashMap<String, String>,
    form: HashMap<String, String>,
}

struct Server {
    base: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Server {
    fn seen(&self, path: &str) -> Vec<Seen> {
        let seen = self.seen.lock().unwrap();
        seen.iter().filter(|s| s.path == path).cloned().collect()
    }

    fn url(&self) -> Url {
        format!("{}/mcp", self.base).parse().unwrap()
    }
}

async fn start(mode: Mode) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (s, b) = (Arc::clone(&seen), base.clone());
    let task = tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            let (s, b) = (Arc::clone(&s), b.clone());
            tokio::spawn(async move {
                let Some(request) = read_request(&mut stream).await else {
                    return;
                };
                s.lock().unwrap().push(request.clone());
                let reply = route(mode, &request, &b);
                let _ = stream.write_all(reply.as_bytes()).await;
                let _ = stream.shutdown().await;
            });
        }
    });
    Server { base, seen, task }
}

async fn read_request(stream: &mut tokio::net::TcpStream) -> Option<Seen> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let (method, target) = (first.next()?.to_owned(), first.next()?.to_owned());
    let headers: HashMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .get("content-length")
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let form = url::form_urlencoded::parse(&buf[head_end..])
        .into_owned()
        .collect();
    let path = target.split('?').next().unwrap_or_default().to_owned();
    Some(Seen {
        method,
        path,
        headers,
        form,
    })
}

fn response(status: u16, extra: &[(&str, &str)], body: &str) -> String {
    let mut head = format!(
        "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (n, v) in extra {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    format!("{head}\r\n{body}")
}

/// The claims of a DPoP proof, after checking its header and its signature with the JWK
/// it carries; panics (fails the test) on anything malformed.
fn verified_proof(proof: &str) -> (Value, Value) {
    let part = |i: usize| -> Value {
        let p = proof.split('.').nth(i).unwrap();
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(p).unwrap()).unwrap()
    };
    let (header, claims) = (part(0), part(1));
    assert_eq!(header["typ"], "dpop+jwt");
    assert_eq!(header["alg"], "ES256");
    let jwk = &header["jwk"];
    assert!(jwk.get("d").is_none(), "the proof's JWK must be public");
    let coord = |name: &str| URL_SAFE_NO_PAD.decode(jwk[name].as_str().unwrap()).unwrap();
    let point = [&[4u8][..], &coord("x"), &coord("y")].concat();
    let (input, sig) = proof.rsplit_once('.').unwrap();
    UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, point)
        .verify(input.as_bytes(), &URL_SAFE_NO_PAD.decode(sig).unwrap())
        .expect("the proof verifies with its own JWK");
    (header, claims)
}

fn thumbprint(jwk: &Value) -> String {
    let canonical = format!(
        r#"{{"crv":"P-256","kty":"EC","x":"{}","y":"{}"}}"#,
        jwk["x"].as_str().unwrap(),
        jwk["y"].as_str().unwrap()
    );
    URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()))
}

fn route(mode: Mode, request: &Seen, base: &str) -> String {
    let prm = format!("{base}/.well-known/oauth-protected-resource/mcp");
    match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/.well-known/oauth-protected-resource/mcp") => response(
            200,
            &[],
            &json!({"resource": format!("{base}/mcp"), "authorization_servers": [base]})
                .to_string(),
        ),
        ("GET", "/.well-known/oauth-authorization-server") => {
            let mut metadata = json!({
                "issuer": base,
                "authorization_endpoint": format!("{base}/authorize"),
                "token_endpoint": format!("{base}/token"),
                "code_challenge_methods_supported": ["S256"],
                "grant_types_supported": [JWT_BEARER],
                "token_endpoint_auth_methods_supported": ["none"],
            });
            if matches!(mode, Mode::Dpop | Mode::DpopStubborn) {
                metadata["dpop_signing_alg_values_supported"] = json!(["ES256"]);
            }
            if matches!(mode, Mode::Enterprise | Mode::EnterpriseWrongType) {
                metadata["token_endpoint_auth_methods_supported"] = json!(["client_secret_basic"]);
            }
            response(200, &[], &metadata.to_string())
        }
        ("POST", "/idp/token") => {
            let issued = if mode == Mode::EnterpriseWrongType {
                "urn:ietf:params:oauth:token-type:access_token"
            } else {
                "urn:ietf:params:oauth:token-type:id-jag"
            };
            response(
                200,
                &[],
                &json!({"access_token": ID_JAG, "issued_token_type": issued, "token_type": "N_A"})
                    .to_string(),
            )
        }
        ("POST", "/token") => {
            if mode == Mode::WorkloadRefused {
                return response(
                    400,
                    &[],
                    r#"{"error":"invalid_grant","error_description":"JWT assertion is expired"}"#,
                );
            }
            if matches!(mode, Mode::Dpop | Mode::DpopStubborn) {
                let proof = request
                    .headers
                    .get("dpop")
                    .expect("a proof at the token endpoint");
                let (_, claims) = verified_proof(proof);
                if claims["nonce"] != AS_NONCE {
                    return response(
                        400,
                        &[("dpop-nonce", AS_NONCE)],
                        r#"{"error":"use_dpop_nonce"}"#,
                    );
                }
                return response(
                    200,
                    &[],
                    &json!({"access_token": DPOP_TOKEN, "token_type": "DPoP", "expires_in": 3600})
                        .to_string(),
                );
            }
            response(
                200,
                &[],
                r#"{"access_token":"bearer-access-SECRET","token_type":"Bearer","expires_in":3600}"#,
            )
        }
        ("POST", "/mcp") => {
            let auth = request.headers.get("authorization").cloned();
            let unauthorized = |scheme: &str, extra: &str| {
                let challenge = format!("{scheme} {extra}resource_metadata=\"{prm}\"");
                response(401, &[("www-authenticate", &challenge)], "{}")
            };
            match mode {
                Mode::Dpop | Mode::DpopStubborn => {
                    let Some(token) = auth.as_deref().and_then(|a| a.strip_prefix("DPoP ")) else {
                        return unauthorized("DPoP", "");
                    };
                    let (_, claims) = verified_proof(&request.headers["dpop"]);
                    let ath = URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes()));
                    assert_eq!(claims["ath"], ath.as_str());
                    if claims["nonce"] != RS_NONCE || mode == Mode::DpopStubborn {
                        let challenge =
                            format!("DPoP error=\"use_dpop_nonce\", resource_metadata=\"{prm}\"");
                        return response(
                            401,
                            &[("www-authenticate", &challenge), ("dpop-nonce", RS_NONCE)],
                            "{}",
                        );
                    }
                    response(200, &[], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#)
                }
                _ if auth.as_deref() == Some("Bearer bearer-access-SECRET") => {
                    response(200, &[], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#)
                }
                _ => unauthorized("Bearer", ""),
            }
        }
        _ => response(404, &[], "{}"),
    }
}

fn client() -> HttpClient {
    HttpClient::new(&HttpClientOptions::new()).unwrap()
}

fn provider(server: &Server, config: OAuthConfig) -> Arc<OAuthProvider> {
    Arc::new(OAuthProvider::new(server.url(), config, client()).unwrap())
}

fn sender(server: &Server, hook: Arc<OAuthProvider>) -> HttpSender {
    HttpSender::new(
        client(),
        &server.url(),
        &[],
        Some(hook as Arc<dyn AuthHook>),
    )
    .unwrap()
}

/// POST to /mcp?session=s1 through `sender`; the status.
async fn post(server: &Server, sender: &HttpSender) -> Result<u16, mcp_jsonrpc::Error> {
    let url: Url = format!("{}/mcp?session=s1", server.base).parse().unwrap();
    let uri: http::Uri = url.as_str().parse().unwrap();
    let response = sender
        .send(
            &url,
            &uri,
            |uri| {
                Ok(Request::post(uri.clone())
                    .header("content-type", "application/json")
                    .body(Full::new(Bytes::from_static(b"{}")))
                    .unwrap())
            },
            |_| {},
        )
        .await?;
    Ok(response.status().as_u16())
}

fn workload_config() -> OAuthConfig {
    let mut config = OAuthConfig::new();
    config.grant = Grant::JwtBearer;
    config.client_id = Some("workload-1".to_owned());
    config.assertion = Some(Assertion::Value(Secret::new(WORKLOAD_JWT)));
    config
}

#[tokio::test]
async fn dpop_proofs_go_with_the_token_request_and_every_request_nonces_retried_once() {
    let server = start(Mode::Dpop).await;
    let mut config = workload_config();
    config.dpop = DpopMode::IfSupported;
    let p = provider(&server, config);
    let s = sender(&server, Arc::clone(&p));
    assert_eq!(post(&server, &s).await.unwrap(), 200);
    assert_eq!(post(&server, &s).await.unwrap(), 200);

    // Token endpoint: one refusal for the nonce, one retry carrying it; the JWT bearer
    // grant with the workload's JWT.
    let token = server.seen("/token");
    assert_eq!(token.len(), 2, "{token:?}");
    let token_url = format!("{}/token", server.base);
    let mut jkt = None;
    for (i, t) in token.iter().enumerate() {
        assert_eq!(t.form["grant_type"], JWT_BEARER);
        assert_eq!(t.form["assertion"], WORKLOAD_JWT);
        assert_eq!(t.form["client_id"], "workload-1");
        assert_eq!(t.form["resource"], format!("{}/mcp", server.base));
        let (header, claims) = verified_proof(&t.headers["dpop"]);
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["htu"], token_url.as_str());
        assert!(claims.get("ath").is_none(), "no token yet");
        assert_eq!(claims.get("nonce").is_some(), i == 1);
        jkt = Some(thumbprint(&header["jwk"]));
    }

    // MCP endpoint: no token, then the DPoP token refused for the nonce, then accepted,
    // then the second request with the nonce at once.
    let mcp = server.seen("/mcp");
    assert_eq!(mcp.len(), 4, "{mcp:?}");
    assert!(!mcp[0].headers.contains_key("authorization"));
    let mut jtis = Vec::new();
    for m in &mcp[1..] {
        assert_eq!(m.headers["authorization"], format!("DPoP {DPOP_TOKEN}"));
        let (header, claims) = verified_proof(&m.headers["dpop"]);
        assert_eq!(
            thumbprint(&header["jwk"]),
            *jkt.as_ref().unwrap(),
            "one key"
        );
        assert_eq!(claims["htm"], "POST");
        // The query is not part of htu (RFC 9449 §4.2).
        assert_eq!(claims["htu"], format!("{}/mcp", server.base));
        jtis.push(claims["jti"].as_str().unwrap().to_owned());
    }
    let nonces: Vec<Option<String>> = mcp[1..]
        .iter()
        .map(|m| {
            verified_proof(&m.headers["dpop"]).1["nonce"]
                .as_str()
                .map(str::to_owned)
        })
        .collect();
    assert_eq!(nonces, [None, Some(RS_NONCE.into()), Some(RS_NONCE.into())]);
    jtis.sort();
    jtis.dedup();
    assert_eq!(jtis.len(), 3, "a fresh proof for every request");
}

#[tokio::test]
async fn enterprise_managed_exchanges_the_id_token_then_presents_the_id_jag() {
    let server = start(Mode::Enterprise).await;
    let mut config = OAuthConfig::new();
    config.grant = Grant::EnterpriseManaged;
    config.client_id = Some("mcp-client".to_owned());
    config.client_secret = Some(Secret::new("client-SECRET"));
    let idp: Url = format!("{}/idp/token", server.base).parse().unwrap();
    let mut enterprise =
        EnterpriseConfig::new(idp, "idp-client", Assertion::Value(Secret::new(ID_TOKEN)));
    enterprise.idp_client_secret = Some(Secret::new("idp-SECRET"));
    config.enterprise = Some(enterprise);
    let p = provider(&server, config);
    let s = sender(&server, Arc::clone(&p));
    assert_eq!(post(&server, &s).await.unwrap(), 200);

    let exchange = server.seen("/idp/token");
    assert_eq!(exchange.len(), 1);
    let f = &exchange[0].form;
    assert_eq!(
        f["grant_type"],
        "urn:ietf:params:oauth:grant-type:token-exchange"
    );
    assert_eq!(
        f["requested_token_type"],
        "urn:ietf:params:oauth:token-type:id-jag"
    );
    assert_eq!(f["subject_token"], ID_TOKEN);
    assert_eq!(
        f["subject_token_type"],
        "urn:ietf:params:oauth:token-type:id_token"
    );
    assert_eq!(
        f["audience"], server.base,
        "the MCP server's authorization server"
    );
    assert_eq!(f["resource"], format!("{}/mcp", server.base));
    let basic = format!("Basic {}", STANDARD.encode("idp-client:idp-SECRET"));
    assert_eq!(exchange[0].headers["authorization"], basic);

    let token = server.seen("/token");
    assert_eq!(token.len(), 1);
    assert_eq!(token[0].form["grant_type"], JWT_BEARER);
    assert_eq!(token[0].form["assertion"], ID_JAG);
    let basic = format!("Basic {}", STANDARD.encode("mcp-client:client-SECRET"));
    assert_eq!(token[0].headers["authorization"], basic);
    assert!(!token[0].form.contains_key("client_secret"));
}

#[tokio::test]
async fn an_identity_provider_answer_that_is_no_id_jag_is_refused_and_goes_nowhere() {
    let server = start(Mode::EnterpriseWrongType).await;
    let mut config = OAuthConfig::new();
    config.grant = Grant::EnterpriseManaged;
    config.client_id = Some("mcp-client".to_owned());
    let idp: Url = format!("{}/idp/token", server.base).parse().unwrap();
    config.enterprise = Some(EnterpriseConfig::new(
        idp,
        "idp-client",
        Assertion::Value(Secret::new(ID_TOKEN)),
    ));
    let p = provider(&server, config);
    let err = p.login().await.unwrap_err();
    assert!(matches!(err, AuthError::Refused { .. }), "{err:?}");
    assert!(server.seen("/token").is_empty(), "never presented");
    for shown in [format!("{err}"), format!("{err:?}"), format!("{p:?}")] {
        for secret in [ID_TOKEN, ID_JAG, "idtoken-SECRET", "idjag-SECRET"] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
    }
}

#[tokio::test]
async fn a_refused_workload_jwt_fails_the_request_once_without_retry_or_other_grant() {
    let server = start(Mode::WorkloadRefused).await;
    let p = provider(&server, workload_config());
    let s = sender(&server, Arc::clone(&p));
    let err = post(&server, &s).await.unwrap_err();
    let text = format!("{err} {err:?}");
    assert!(text.contains("invalid_grant"), "{text}");
    assert!(!text.contains("workload-SECRET"), "{text}");
    let token = server.seen("/token");
    assert_eq!(token.len(), 1, "no retry: {token:?}");
    assert_eq!(token[0].form["grant_type"], JWT_BEARER);
}

#[tokio::test]
async fn a_workload_token_file_is_read_at_each_grant() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("token");
    std::fs::write(&path, format!("{WORKLOAD_JWT}\n")).unwrap();
    let server = start(Mode::Enterprise).await;
    let mut config = workload_config();
    config.assertion = Some(Assertion::File(path.clone()));
    let p = provider(&server, config.clone());
    p.login().await.unwrap();
    std::fs::write(&path, "eyJ.rotated.sig").unwrap();
    provider(&server, config).login().await.unwrap();
    let token = server.seen("/token");
    let sent: Vec<&str> = token.iter().map(|t| t.form["assertion"].as_str()).collect();
    assert_eq!(sent, [WORKLOAD_JWT, "eyJ.rotated.sig"]);
    // The configuration's Debug shows neither the values nor a key.
    let mut config = workload_config();
    config.dpop = DpopMode::Always;
    assert!(!format!("{config:?}").contains("workload-SECRET"));
}

#[tokio::test]
async fn a_stored_dpop_token_keeps_its_key_across_providers() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn mcp_auth::TokenStore> = Arc::new(mcp_auth::FileTokenStore::new(dir.path()));
    let server = start(Mode::Dpop).await;
    let mut config = workload_config();
    config.dpop = DpopMode::IfSupported;
    let first = OAuthProvider::new(server.url(), config.clone(), client())
        .unwrap()
        .with_store(Arc::clone(&store));
    first.login().await.unwrap();
    let stored = store
        .load_tokens(&format!("{}/mcp", server.base))
        .unwrap()
        .unwrap();
    assert!(stored.is_dpop());
    assert!(!format!("{stored:?}").contains(DPOP_TOKEN));
    let jkt = thumbprint(&verified_proof(&server.seen("/token")[1].headers["dpop"]).0["jwk"]);

    // A new provider (a new process) presents the stored token with the stored key.
    let second = OAuthProvider::new(server.url(), config, client())
        .unwrap()
        .with_store(store);
    let s = sender(&server, Arc::new(second));
    assert_eq!(post(&server, &s).await.unwrap(), 200);
    assert_eq!(server.seen("/token").len(), 2, "no new token request");
    for m in server.seen("/mcp") {
        assert_eq!(m.headers["authorization"], format!("DPoP {DPOP_TOKEN}"));
        assert_eq!(
            thumbprint(&verified_proof(&m.headers["dpop"]).0["jwk"]),
            jkt
        );
    }
}

#[tokio::test]
async fn a_server_refusing_its_own_nonce_gets_one_retry_then_its_401() {
    let server = start(Mode::DpopStubborn).await;
    let mut config = workload_config();
    config.dpop = DpopMode::Always;
    let p = provider(&server, config);
    let s = sender(&server, Arc::clone(&p));
    assert_eq!(post(&server, &s).await.unwrap(), 401);
    // No token; the token without the nonce; once with it; then the 401 is returned.
    let mcp = server.seen("/mcp");
    assert_eq!(mcp.len(), 3, "{mcp:?}");
    let nonce = verified_proof(&mcp[2].headers["dpop"]).1["nonce"].clone();
    assert_eq!(nonce, RS_NONCE);
    assert_eq!(
        server.seen("/token").len(),
        2,
        "no new grant for a nonce refusal"
    );
}
