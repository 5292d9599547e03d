//! How the lab's commands print: to stdout, a closed pipe an error, never a panic.

/// Writes to stdout, a closed pipe (`| head`) being an error like any other, not a panic.
pub fn write_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    Ok(stdout.flush()?)
}
