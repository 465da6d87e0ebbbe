//! What several of the suite's files run the binary with.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// `spinneret ARGS` with `stdin` on its standard input (written from a
/// thread of its own, so a large input cannot block on a full pipe): its
/// exit status, output and diagnostics.
pub fn spinneret_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let feed = stdin.to_vec();
    // A run that stops reading early closes the pipe: not an error here.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&feed);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}
