//! The accept loop: HTTP/1.1 connections with a header-read timeout, an idle timeout and a
//! cap on open connections, and a shutdown that stops accepting, lets requests in flight
//! finish up to a deadline, then closes whatever is left. No routing or error bodies here.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request};
use axum::response::Response;
use hyper::body::{Body as HttpBody, Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tower::{Service, ServiceExt};

use super::activity::{watch, Activity, Tracked};

/// Connection and shutdown bounds of `serve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionBounds {
    /// Time allowed to receive a whole request head, counted from when the server starts
    /// waiting for it: the connection opening, or the previous response on a kept-alive one.
    pub header_timeout: Duration,
    /// Time allowed for one request, body read and answer included.
    pub request_timeout: Duration,
    /// A connection on which no byte moves either way for this long is closed.
    pub idle_timeout: Duration,
    /// Most connections open at once; further ones wait in the listen backlog.
    pub max_connections: usize,
    /// After SIGTERM/Ctrl-C, how long requests in flight may take before the server exits.
    pub shutdown_grace: Duration,
}

impl Default for ConnectionBounds {
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            max_connections: 1024,
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Pause after a failed accept (e.g. out of file descriptors) before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// What `run` serves: the application as one tower service.
pub trait App:
    Service<Request, Response = Response, Error = Infallible, Future: Send + 'static>
    + Clone
    + Send
    + Sync
    + 'static
{
}

impl<S> App for S where
    S: Service<Request, Response = Response, Error = Infallible, Future: Send + 'static>
        + Clone
        + Send
        + Sync
        + 'static
{
}

/// Serves `app` on `listener` until `stop` resolves, then drains within the grace period.
pub async fn run(
    listener: TcpListener,
    app: impl App,
    config: ConnectionBounds,
    stop: impl std::future::Future<Output = ()>,
) {
    let permits = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let (closing, closing_rx) = watch::channel(false);
    let mut connections = JoinSet::new();
    tokio::pin!(stop);
    loop {
        let permit = tokio::select! {
            () = &mut stop => break,
            permit = Arc::clone(&permits).acquire_owned() => permit.expect("the semaphore is never closed"),
        };
        let (stream, peer) = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        while connections.try_join_next().is_some() {}
        let connection = Connection {
            app: app.clone(),
            config,
            closing: closing_rx.clone(),
            _permit: permit,
        };
        connections.spawn(connection.serve(stream, peer));
    }
    drop(listener);
    drain(connections, closing, config.shutdown_grace).await;
}

/// Asks every connection to finish its request and close, waits up to `grace`, then closes
/// the rest (idle, half-open or still answering).
async fn drain(mut connections: JoinSet<()>, closing: watch::Sender<bool>, grace: Duration) {
    closing.send_replace(true);
    tracing::info!(
        open = connections.len(),
        grace_secs = grace.as_secs(),
        "shutting down: no new connections"
    );
    let finished = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(grace, finished).await.is_err() {
        tracing::warn!(
            open = connections.len(),
            "closing connections still open after the shutdown grace period"
        );
        connections.shutdown().await;
    }
}

struct Connection<A> {
    app: A,
    config: ConnectionBounds,
    closing: watch::Receiver<bool>,
    _permit: OwnedSemaphorePermit,
}

impl<A: App> Connection<A> {
    async fn serve(mut self, stream: TcpStream, peer: SocketAddr) {
        let activity = Activity::new();
        let io = TokioIo::new(Tracked::new(stream, Arc::clone(&activity)));
        let admitting = Arc::clone(&activity);
        let answering = Arc::clone(&activity);
        let app = self
            .app
            .clone()
            .map_request(move |request: Request<Incoming>| {
                admitting.admitted();
                let mut request = request.map(Body::new);
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            })
            .map_response(move |response| answered_when_sent(response, &answering));
        // The header and idle timeouts are `watch`'s, not a timer hyper arms per request.
        let connection = http1::Builder::new()
            .header_read_timeout(None)
            .serve_connection(io, TowerToHyperService::new(app));
        tokio::pin!(connection);
        let quiet = watch(
            activity,
            self.config.header_timeout,
            self.config.idle_timeout,
        );
        tokio::pin!(quiet);
        let mut asked_to_close = *self.closing.borrow();
        if asked_to_close {
            connection.as_mut().graceful_shutdown();
        }
        loop {
            tokio::select! {
                outcome = connection.as_mut() => {
                    if let Err(e) = outcome {
                        tracing::debug!(%peer, "connection ended: {e}");
                    }
                    return;
                }
                quiet = &mut quiet => {
                    tracing::debug!(%peer, ?quiet, "closing a quiet connection");
                    return;
                }
                _ = self.closing.changed(), if !asked_to_close => {
                    asked_to_close = true;
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// Counts `response`'s request answered: at once when its body's length is known (hyper has
/// it whole to write; `Activity` follows the writing), else when the streamed body ends or is
/// dropped, so a stream (MCP's event stream) is a request in progress, not a wait for a head.
fn answered_when_sent(response: Response, activity: &Arc<Activity>) -> Response {
    if response.body().size_hint().exact().is_some() {
        activity.answered();
        return response;
    }
    let activity = Some(Arc::clone(activity));
    response.map(|body| Body::new(Streamed { body, activity }))
}

pin_project_lite::pin_project! {
    /// A streamed response body that counts its request answered when it ends or is dropped.
    struct Streamed {
        #[pin]
        body: Body,
        activity: Option<Arc<Activity>>,
    }

    impl PinnedDrop for Streamed {
        fn drop(this: Pin<&mut Self>) {
            if let Some(activity) = this.project().activity.take() {
                activity.answered();
            }
        }
    }
}

impl HttpBody for Streamed {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.project();
        let polled = this.body.poll_frame(cx);
        if matches!(polled, Poll::Ready(None)) {
            if let Some(activity) = this.activity.take() {
                activity.answered();
            }
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// A body of frames given one at a time, its length unknown (as a stream's is).
    struct Frames(VecDeque<Bytes>);

    impl HttpBody for Frames {
        type Data = Bytes;
        type Error = Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            Poll::Ready(self.0.pop_front().map(|data| Ok(Frame::data(data))))
        }
    }

    #[tokio::test]
    async fn a_whole_body_is_answered_at_once_and_a_stream_when_it_ends_or_is_dropped() {
        let activity = Activity::new();
        let whole = answered_when_sent(Response::new(Body::from("{}")), &activity);
        assert_eq!(activity.answered_count(), 1);
        drop(whole);
        assert_eq!(activity.answered_count(), 1);

        let frames = || Frames(VecDeque::from([Bytes::from("a"), Bytes::from("b")]));
        let streamed = answered_when_sent(Response::new(Body::new(frames())), &activity);
        let mut body = streamed.into_body();
        let first = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await;
        assert!(first.is_some());
        assert_eq!(
            activity.answered_count(),
            1,
            "a stream under way is not answered"
        );
        while std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx))
            .await
            .is_some()
        {}
        assert_eq!(activity.answered_count(), 2, "the stream ended");
        drop(body);
        assert_eq!(activity.answered_count(), 2, "counted once");

        let abandoned = answered_when_sent(Response::new(Body::new(frames())), &activity);
        drop(abandoned);
        assert_eq!(activity.answered_count(), 3, "a dropped stream is over");
    }
}
