//! `PipeTransport`: the server's end of stdio, over real pipes (a pair of `tokio::io::duplex`
//! streams stands for the process's stdin and stdout).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_jsonrpc::{
    BoxFuture, CancelToken, NoopHandler, RequestOptions, ServerRequestOutcome, Session,
    SessionOptions, TransportHandler,
};
use mcp_transport_stdio::PipeTransport;
use mcp_types::Request;

/// A server that answers every request with its method name, and counts its closes.
#[derive(Default)]
struct Named {
    closed: AtomicUsize,
}

impl TransportHandler for Named {
    fn on_request(
        &self,
        request: Request,
        _: CancelToken,
    ) -> BoxFuture<'static, ServerRequestOutcome> {
        let result = mcp_types::to_raw(&serde_json::json!({ "method": request.method })).unwrap();
        Box::pin(async move { ServerRequestOutcome::Reply(Ok(result)) })
    }

    fn on_closed(&self) {
        self.closed.fetch_add(1, Ordering::SeqCst);
    }
}

/// A client session and a server session joined by two pipes.
fn pair(server: Arc<Named>, max_line: Option<usize>) -> (Session, Session) {
    let (client_out, server_in) = tokio::io::duplex(4096);
    let (server_out, client_in) = tokio::io::duplex(4096);
    let mut server_pipe = PipeTransport::new(server_in, server_out);
    if let Some(max) = max_line {
        server_pipe = server_pipe.with_max_line_bytes(max);
    }
    let server = Session::start(server_pipe, SessionOptions::server(), server);
    let client = Session::start(
        PipeTransport::new(client_in, client_out),
        SessionOptions::new(),
        Arc::new(NoopHandler),
    );
    (client, server)
}

#[tokio::test]
async fn a_server_session_answers_over_the_pipe_and_ends_with_its_peer() {
    let handler = Arc::new(Named::default());
    let (client, server) = pair(Arc::clone(&handler), None);
    let answer = client
        .request("tools/list", None, RequestOptions::new())
        .await
        .unwrap();
    assert_eq!(answer.get(), r#"{"method":"tools/list"}"#);
    // The client goes away: its end of the pipe closes, and the server's session ends.
    client.close().await;
    tokio::time::timeout(Duration::from_secs(5), async {
        while server.is_connected() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the server's session ends when its peer closes the pipe");
    server.close().await;
    assert_eq!(handler.closed.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn an_oversized_line_is_skipped_and_the_pipe_goes_on() {
    let handler = Arc::new(Named::default());
    let (client, server) = pair(Arc::clone(&handler), Some(256));
    let big = mcp_types::to_raw(&serde_json::json!({ "pad": "x".repeat(1000) })).unwrap();
    let options = RequestOptions::new().with_timeout(Duration::from_millis(300));
    let skipped = client.request("big", Some(big), options).await;
    assert!(skipped.unwrap_err().is_timeout(), "the server never saw it");
    let answer = client.request("ping", None, RequestOptions::new()).await;
    assert_eq!(answer.unwrap().get(), r#"{"method":"ping"}"#);
    client.close().await;
    server.close().await;
}
