//! Waiting for several futures at once, without a dependency on `futures`.

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

/// Poll every future until all are done; outputs in input order.
///
/// The futures run concurrently on the current task (not spawned), so they may borrow from
/// the caller. Each wake-up polls the unfinished ones: fine for a handful of servers.
pub(crate) async fn join_all<F: Future + Unpin>(mut futures: Vec<F>) -> Vec<F::Output> {
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match Pin::new(future).poll(cx) {
                    Poll::Ready(value) => *output = Some(value),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    #[tokio::test]
    async fn outputs_keep_input_order_and_futures_run_together() {
        // The first future can only finish once the second has run: sequential polling
        // would never get there.
        let (tx, rx) = tokio::sync::oneshot::channel::<u32>();
        let first: std::pin::Pin<Box<dyn std::future::Future<Output = u32>>> =
            Box::pin(async move { rx.await.unwrap_or(0) + 1 });
        let second: std::pin::Pin<Box<dyn std::future::Future<Output = u32>>> =
            Box::pin(async move {
                let _ = tx.send(41);
                7
            });
        let joined = tokio::time::timeout(
            Duration::from_secs(10),
            super::join_all(vec![first, second]),
        )
        .await;
        assert_eq!(
            joined.expect("join_all must not wait for the first future alone"),
            [42, 7]
        );
    }
}
