//! The threads a search's parallel parts run on: one pool, one thread per core, made once per
//! process, so a search spawns no thread (a fresh thread costs a stack and fresh allocator
//! pages the kernel must zero). Owns scheduling only, no search logic.

use std::sync::OnceLock;

use rayon::{ThreadPool, ThreadPoolBuilder};

fn pool() -> &'static ThreadPool {
    static POOL: OnceLock<ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        ThreadPoolBuilder::new()
            .num_threads(cores)
            .thread_name(|i| format!("search-{i}"))
            .build()
            .expect("the search threads can be started")
    })
}

/// Runs `beside` on a search thread while `work` runs on the calling thread; both results.
pub fn beside<A, RA, RB>(beside: A, work: impl FnOnce() -> RB) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    RA: Send,
{
    let mut found = None;
    let done = pool().in_place_scope(|scope| {
        scope.spawn(|_| found = Some(beside()));
        work()
    });
    (found.expect("a scope waits for what it spawned"), done)
}

/// `work` applied to every item, items spread over the cores; results in item order.
pub fn map_each<T, R>(items: Vec<T>, work: impl Fn(T) -> R + Sync + Send) -> Vec<R>
where
    T: Send,
    R: Send,
{
    use rayon::prelude::*;
    pool().install(|| items.into_par_iter().map(work).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_their_order_and_both_sides_run() {
        assert_eq!(
            map_each((0..50).collect(), |i: u32| i * 2),
            (0..50).map(|i| i * 2).collect::<Vec<_>>()
        );
        assert_eq!(beside(|| 1, || "two"), (1, "two"));
    }
}
