//! A file written under a temporary name beside its final one and renamed
//! into place only when the run completes ([`PendingFile::commit`]), so that
//! a file under the final name is always a whole output: a run that fails,
//! or is stopped by SIGINT, SIGTERM or SIGHUP, removes its temporary and
//! leaves whatever was under the final name before untouched.
//!
//! The temporary is `.NAME.spinneret-PID-N.tmp` in the final file's folder
//! (the same file system, so the rename is atomic; hidden, and not named
//! like a crawl file, so that a folder walk does not take it). The first
//! pending file starts a thread that waits for those signals
//! (`signal-hook`'s iterator: the clean-up runs on that thread, not in the
//! signal handler); on one it removes every pending temporary and ends
//! the process with 128 + the signal's number, as a shell reports a
//! process killed by it.
//!
//! A folder of files (`index --zipnum DIR`) is made the same way
//! ([`PendingDir`]): built under a temporary name beside `DIR` and renamed
//! to it when `DIR` is missing or empty; into a `DIR` that holds other
//! files, its files are moved one by one, the ones that make the rest
//! usable (a ZipNum cluster's `.loc` and `.idx`) last, and the old one of
//! those first taken away, so that a reader never finds a new part beside
//! an old one.
//!
//! Limits: a `kill -9` cannot be caught, so its temporary stays (under its
//! own name, never the final one); the file is not `fsync`ed before the
//! rename, so the guarantee is against the process stopping, not the
//! machine.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};

/// The temporaries not yet renamed or removed, for the signal thread.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Starts the signal thread, once.
static WATCH: Once = Once::new();

/// Makes each temporary's name unique within the process.
static SERIAL: AtomicU64 = AtomicU64::new(0);

/// The signals that remove the temporaries before the process ends.
const SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// An output file being written under a temporary name.
#[derive(Debug)]
pub struct PendingFile {
    file: File,
    temp: PathBuf,
    path: PathBuf,
    /// Renamed into place (nothing to remove on drop).
    done: bool,
}

impl PendingFile {
    /// Creates the temporary beside `path`.
    pub fn create(path: &Path) -> io::Result<PendingFile> {
        let (temp, file) = make_temporary(path, |t| File::create(t))?;
        Ok(PendingFile {
            file,
            temp,
            path: path.to_owned(),
            done: false,
        })
    }

    /// The temporary's path.
    pub fn temporary(&self) -> &Path {
        &self.temp
    }

    /// Puts the file in place under its final name (replacing what was
    /// there). The pending list stays locked over the rename, so that a
    /// signal cannot remove the temporary half-way.
    pub fn commit(mut self) -> io::Result<()> {
        let mut pending = lock();
        let renamed = std::fs::rename(&self.temp, &self.path);
        pending.retain(|p| *p != self.temp);
        drop(pending);
        self.done = renamed.is_ok();
        renamed
    }
}

impl Write for PendingFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for PendingFile {
    /// Not committed (the run failed): the temporary goes.
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.temp);
            forget(&self.temp);
        }
    }
}

/// Makes `path`'s temporary with `make`, registered for the signal
/// thread before it exists: a signal between the two finds nothing to
/// remove, never a temporary it does not know of.
fn make_temporary<T>(
    path: &Path,
    make: impl FnOnce(&Path) -> io::Result<T>,
) -> io::Result<(PathBuf, T)> {
    let temp = temporary_name(path);
    watch_signals();
    lock().push(temp.clone());
    let made = make(&temp).inspect_err(|_| forget(&temp))?;
    Ok((temp, made))
}

/// `.NAME.spinneret-PID-N.tmp` beside `path`.
fn temporary_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy());
    let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
    let temp = format!(".{name}.spinneret-{}-{serial}.tmp", std::process::id());
    path.with_file_name(temp)
}

fn lock() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic while the list is held leaves it whole: take it anyway.
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

fn forget(temp: &Path) {
    lock().retain(|p| p != temp);
}

/// Removes a temporary file or folder.
fn remove(temp: &Path) {
    let _ = if temp.is_dir() {
        std::fs::remove_dir_all(temp)
    } else {
        std::fs::remove_file(temp)
    };
}

/// A folder of output files being made under a temporary name.
#[derive(Debug)]
pub struct PendingDir {
    temp: PathBuf,
    path: PathBuf,
    /// Put in place (nothing to remove on drop).
    done: bool,
}

impl PendingDir {
    /// Creates the temporary folder beside `path`.
    pub fn create(path: &Path) -> io::Result<PendingDir> {
        let (temp, ()) = make_temporary(path, |t| std::fs::create_dir(t))?;
        Ok(PendingDir {
            temp,
            path: path.to_owned(),
            done: false,
        })
    }

    /// The temporary folder, to write the files into.
    pub fn temporary(&self) -> &Path {
        &self.temp
    }

    /// Puts the files in place: the folder renamed to its final name if
    /// that is missing or an empty folder; else each file moved into it,
    /// those named in `last` last and in that order, after the old files
    /// of those names were taken away.
    pub fn commit(mut self, last: &[&str]) -> io::Result<()> {
        let mut pending = lock();
        let result = self.put_in_place(last);
        pending.retain(|p| *p != self.temp);
        drop(pending);
        if result.is_ok() {
            self.done = true;
            remove(&self.temp); // empty once its files were moved
        }
        result
    }

    fn put_in_place(&self, last: &[&str]) -> io::Result<()> {
        let empty = match std::fs::read_dir(&self.path) {
            Ok(mut entries) => entries.next().is_none(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => true,
            Err(e) => return Err(e),
        };
        if empty {
            return std::fs::rename(&self.temp, &self.path);
        }
        for name in last {
            match std::fs::remove_file(self.path.join(name)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        let mut names: Vec<_> = std::fs::read_dir(&self.temp)?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<io::Result<_>>()?;
        // The files named in `last` after every other, in their order.
        names.sort_by_key(|n| last.iter().position(|l| n.as_os_str() == *l));
        for name in names {
            std::fs::rename(self.temp.join(&name), self.path.join(&name))?;
        }
        Ok(())
    }
}

impl Drop for PendingDir {
    /// Not committed (the run failed): the temporary folder goes.
    fn drop(&mut self) {
        if !self.done {
            remove(&self.temp);
            forget(&self.temp);
        }
    }
}

/// Starts the thread that removes the temporaries on a signal, once. If
/// the signals cannot be watched, the run goes on without it (a signal
/// then leaves its temporary, as `kill -9` does).
fn watch_signals() {
    WATCH.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new(SIGNALS) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("spinneret-signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    // Held until the process ends: nothing is renamed
                    // into place after the signal.
                    let pending = lock();
                    for temp in pending.iter() {
                        remove(temp);
                    }
                    std::process::exit(128 + signal);
                }
            });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::source::tmpdir;

    #[test]
    fn committed_files_replace_the_final_one_and_dropped_ones_leave_it() {
        let d = tmpdir("pending-commit");
        let path = d.join("out.cdxj");
        std::fs::write(&path, b"old").unwrap();
        // Dropped without a commit: the old file stays, the temporary goes.
        let mut f = PendingFile::create(&path).unwrap();
        let temp = f.temporary().to_owned();
        assert!(
            temp.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(".out.cdxj.spinneret-")
        );
        f.write_all(b"half").unwrap();
        assert!(temp.exists());
        drop(f);
        assert!(!temp.exists());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert!(!lock().contains(&temp));
        // Committed: the new content under the final name, nothing else.
        let mut f = PendingFile::create(&path).unwrap();
        f.write_all(b"new").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let left: Vec<_> = std::fs::read_dir(&d).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn folders_are_renamed_into_place_or_their_files_moved_last_ones_last() {
        let d = tmpdir("pending-dir");
        let write = |dir: &Path, files: &[(&str, &str)]| {
            for (name, text) in files {
                std::fs::write(dir.join(name), text).unwrap();
            }
        };
        let read = |dir: &Path| -> Vec<(String, String)> {
            let mut v: Vec<_> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| {
                    let p = e.unwrap().path();
                    let name = p.file_name().unwrap().to_string_lossy().into_owned();
                    (name, std::fs::read_to_string(&p).unwrap())
                })
                .collect();
            v.sort();
            v
        };
        // Missing: the folder is renamed into place.
        let out = d.join("cluster");
        let pending = PendingDir::create(&out).unwrap();
        write(
            pending.temporary(),
            &[("a-01.cdx.gz", "new"), ("a.idx", "new")],
        );
        pending.commit(&["a.loc", "a.idx"]).unwrap();
        assert_eq!(read(&out).len(), 2);
        // Holding other files: they stay, the cluster's are replaced, and
        // an old `.loc` the new cluster lacks is taken away.
        write(&out, &[("notes.txt", "mine"), ("a.loc", "old")]);
        let pending = PendingDir::create(&out).unwrap();
        write(
            pending.temporary(),
            &[("a-01.cdx.gz", "newer"), ("a.idx", "newer")],
        );
        pending.commit(&["a.loc", "a.idx"]).unwrap();
        assert_eq!(
            read(&out),
            [
                ("a-01.cdx.gz".to_owned(), "newer".to_owned()),
                ("a.idx".to_owned(), "newer".to_owned()),
                ("notes.txt".to_owned(), "mine".to_owned()),
            ]
        );
        // Dropped: the old folder untouched, the temporary gone.
        let pending = PendingDir::create(&out).unwrap();
        write(pending.temporary(), &[("a.idx", "half")]);
        drop(pending);
        assert_eq!(read(&out).len(), 3);
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_folder_that_does_not_exist_is_an_error_and_nothing_pending() {
        let d = tmpdir("pending-missing");
        let path = d.join("no/such/folder/out.jsonl");
        let e = PendingFile::create(&path).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(lock().iter().all(|p| !p.starts_with(&d)));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
