//! A connection's watchdog: `Activity` counts what moved on the socket (`Tracked`) and the
//! requests admitted and answered, with plain atomic stores on the request path (no clock
//! read, no timer per request); `watch` looks at the counts a few times per bound and resolves
//! once the connection has waited too long for a request head or moved no byte for too long.
//! Knows nothing of HTTP; the server closes the connection when `watch` resolves.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, MissedTickBehavior};

/// Checks per bound: a bound is enforced between its length and a quarter more.
const CHECKS_PER_BOUND: u32 = 4;

/// What a connection has done so far. Each count has one writer, the connection's own task.
#[derive(Default)]
pub struct Activity {
    read: AtomicU64,
    written: AtomicU64,
    /// The last write found the socket full: the client is not reading an answer yet.
    write_blocked: AtomicBool,
    admitted: AtomicU64,
    answered: AtomicU64,
}

impl Activity {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// A request head was read whole and handed to the application.
    pub fn admitted(&self) {
        bump(&self.admitted);
    }

    /// The application answered a request (for a streamed body: the stream ended).
    pub fn answered(&self) {
        bump(&self.answered);
    }

    #[cfg(test)]
    pub fn answered_count(&self) -> u64 {
        self.answered.load(Ordering::Relaxed)
    }

    fn moved(&self) -> u64 {
        self.read.load(Ordering::Relaxed) + self.written.load(Ordering::Relaxed)
    }

    /// While every admitted request is answered and its answer is not stuck in a full socket,
    /// the connection waits for a head; a new answer or a further write starts a new wait.
    /// `None` while a request is being read or answered.
    fn waiting_for_head(&self) -> Option<(u64, u64)> {
        let answered = self.answered.load(Ordering::Relaxed);
        let idle = self.admitted.load(Ordering::Relaxed) == answered
            && !self.write_blocked.load(Ordering::Relaxed);
        idle.then(|| (answered, self.written.load(Ordering::Relaxed)))
    }

    fn wrote(&self, polled: &Poll<io::Result<usize>>) {
        match polled {
            Poll::Ready(Ok(n)) if *n > 0 => {
                bump(&self.written);
                self.write_blocked.store(false, Ordering::Relaxed);
            }
            Poll::Pending => self.write_blocked.store(true, Ordering::Relaxed),
            Poll::Ready(_) => {}
        }
    }
}

/// One writer: a load and a store, not a locked read-modify-write.
fn bump(count: &AtomicU64) {
    count.store(count.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
}

/// Why `watch` gave up on a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quiet {
    /// No complete request head within the header timeout since the connection opened or
    /// its last answer.
    NoHead,
    /// No byte moved either way within the idle timeout.
    Idle,
}

/// Resolves once the connection has waited for one request head for `header_timeout`, or
/// moved nothing for `idle_timeout`; each is enforced within a quarter of its length after.
pub async fn watch(
    activity: Arc<Activity>,
    header_timeout: Duration,
    idle_timeout: Duration,
) -> Quiet {
    let every = (header_timeout.min(idle_timeout) / CHECKS_PER_BOUND).max(Duration::from_millis(1));
    let opened = Instant::now();
    let mut checks = tokio::time::interval_at(opened + every, every);
    checks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut moved = (activity.moved(), opened);
    let mut waiting = (activity.waiting_for_head(), opened);
    loop {
        let now = checks.tick().await;
        let moved_now = activity.moved();
        if moved_now != moved.0 {
            moved = (moved_now, now);
        } else if now - moved.1 >= idle_timeout {
            return Quiet::Idle;
        }
        let waiting_now = activity.waiting_for_head();
        if waiting_now != waiting.0 {
            waiting = (waiting_now, now);
        } else if waiting_now.is_some() && now - waiting.1 >= header_timeout {
            return Quiet::NoHead;
        }
    }
}

/// A socket that counts the reads and writes that moved bytes into its `Activity`.
pub struct Tracked<S> {
    inner: S,
    activity: Arc<Activity>,
}

impl<S> Tracked<S> {
    pub fn new(inner: S, activity: Arc<Activity>) -> Self {
        Self { inner, activity }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Tracked<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            bump(&self.activity.read);
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Tracked<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, data);
        self.activity.wrote(&polled);
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, data);
        self.activity.wrote(&polled);
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: Duration = Duration::from_secs(10);
    const IDLE: Duration = Duration::from_secs(60);

    async fn gives_up_after(activity: Arc<Activity>) -> (Quiet, Duration) {
        let started = Instant::now();
        let quiet = watch(activity, HEAD, IDLE).await;
        (quiet, started.elapsed())
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_without_a_head_is_closed_within_a_quarter_after_the_header_timeout() {
        let (quiet, after) = gives_up_after(Activity::new()).await;
        assert_eq!(quiet, Quiet::NoHead);
        assert!(after >= HEAD && after <= HEAD + HEAD / 4, "{after:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn answered_requests_restart_the_wait_and_a_request_in_progress_is_not_a_wait() {
        let activity = Activity::new();
        let watched = tokio::spawn(gives_up_after(Arc::clone(&activity)));
        for _ in 0..5 {
            tokio::time::sleep(HEAD / 2).await;
            activity.admitted();
            bump(&activity.read);
            tokio::time::sleep(Duration::from_millis(10)).await;
            activity.answered();
        }
        activity.admitted();
        for _ in 0..5 {
            tokio::time::sleep(HEAD).await;
            bump(&activity.read);
        }
        activity.answered();
        let (quiet, after) = watched.await.unwrap();
        assert_eq!(quiet, Quiet::NoHead);
        let last_answer = HEAD / 2 * 5 + Duration::from_millis(50) + HEAD * 5;
        assert!(after >= last_answer + HEAD, "{after:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_still_being_written_or_stuck_in_a_full_socket_is_not_a_wait() {
        let activity = Activity::new();
        let watched = tokio::spawn(gives_up_after(Arc::clone(&activity)));
        activity.admitted();
        activity.answered();
        for _ in 0..8 {
            activity.wrote(&Poll::Ready(Ok(64 * 1024)));
            tokio::time::sleep(HEAD / 2).await;
        }
        activity.wrote(&Poll::Pending);
        tokio::time::sleep(HEAD * 3).await;
        activity.wrote(&Poll::Ready(Ok(512)));
        let (quiet, after) = watched.await.unwrap();
        assert_eq!(quiet, Quiet::NoHead);
        let last_write = HEAD / 2 * 8 + HEAD * 3;
        assert!(after >= last_write + HEAD, "{after:?}");
        assert!(after <= last_write + HEAD + HEAD / 2, "{after:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_moving_no_byte_is_closed_after_the_idle_timeout() {
        let activity = Activity::new();
        activity.admitted();
        let (quiet, after) = gives_up_after(activity).await;
        assert_eq!(quiet, Quiet::Idle);
        assert!(after >= IDLE && after <= IDLE + HEAD / 4, "{after:?}");
    }
}
