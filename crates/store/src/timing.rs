//! How long each phase of opening a generation takes, logged: operators read where an open's
//! time goes from these lines. Measures only.

/// Runs one phase of opening a generation and logs how long it took (operators read where
/// an open's time goes from these lines).
pub fn open_phase<T>(phase: &'static str, run: impl FnOnce() -> T) -> T {
    let started = std::time::Instant::now();
    let result = run();
    let ms = started.elapsed().as_millis();
    tracing::info!(phase, ms, "opening the index");
    result
}
