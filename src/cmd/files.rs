//! Reading and writing the files commands work on: one size limit, one
//! error wording, whole-or-nothing writes.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};

/// Largest file a contract command reads (contracts are documents, not data dumps).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Whether `path` names a spec (`.yaml`, `.yml`) rather than a compiled
/// contract (JSON).
pub fn is_spec(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"))
}

/// Reads a UTF-8 text file, refusing files above [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if meta.len() > MAX_FILE_BYTES {
        bail!(
            "{}: {} bytes is larger than the {} byte limit",
            path.display(),
            meta.len(),
            MAX_FILE_BYTES
        );
    }
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Writes `text` and a newline to `path`, or to standard output for `None`
/// or `-` (see [`write_file`]).
pub fn write_output(path: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match path {
        None => print_stdout(text),
        Some(p) if p == Path::new("-") => print_stdout(text),
        Some(p) => write_file(p, format!("{text}\n").as_bytes()),
    }
}

/// Writes `bytes` to `path` without destroying what is there.
///
/// A regular file, or a path that does not exist yet, is replaced whole or
/// not at all: the bytes go to a temporary file with a unique name in the
/// same directory, are flushed to disk, and the temporary file is renamed
/// over the target (an existing file keeps its permissions). Anything else
/// is written straight into: a device (`/dev/null`), a FIFO, a terminal —
/// renaming over it would replace it with a plain file (as root, `-o
/// /dev/null` used to replace the system's `/dev/null`) — and a symlink,
/// which is followed and stays a link (`/dev/stderr` is a link to whatever
/// file standard error was sent to: replacing that file would wipe a log).
pub fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => {
            replace(path, bytes, Some(meta.permissions())).with_context(cannot)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            replace(path, bytes, None).with_context(cannot)
        }
        Err(e) => Err(e).with_context(cannot),
        Ok(_) if path.is_dir() => bail!("cannot write {}: it is a directory", path.display()),
        Ok(_) => {
            // `create` for a dangling link (its target is made); `truncate`
            // is a no-op on devices and FIFOs
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)
                .with_context(cannot)?;
            file.write_all(bytes).with_context(cannot)
        }
    }
}

/// Temporary file beside `target`, synced, then renamed over it. A new
/// file gets what `File::create` would give it (0666 less the umask:
/// open(2) applies the umask to the mode tempfile passes); an existing
/// one keeps `permissions`.
fn replace(
    target: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    // before the content: a private file's bytes are never readable
    if let Some(p) = permissions {
        tmp.as_file().set_permissions(p)?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(target).map_err(|e| e.error)?;
    Ok(())
}

fn print_stdout(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").context("cannot write to standard output")
}

/// Reads a JSON file (a leading byte-order mark is ignored); bad JSON names
/// the file, line and column.
pub fn read_json(path: &Path) -> anyhow::Result<serde_json::Value> {
    let text = read_text(path)?;
    let origin = path.display().to_string();
    Ok(accord_dsl::pact::parse_json(
        text.trim_start_matches('\u{feff}'),
        &origin,
    )?)
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    use std::path::PathBuf;

    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("accord-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_fifo_is_written_into_and_stays_a_fifo() {
        let dir = scratch("fifo");
        let fifo = dir.join("out.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(&fifo).expect("read the fifo"))
        };
        write_file(&fifo, b"{\"ok\":true}\n").expect("written");
        // checked before joining: a replaced FIFO would leave the reader blocked
        let kind = std::fs::symlink_metadata(&fifo)
            .expect("still there")
            .file_type();
        assert!(kind.is_fifo(), "the FIFO was replaced by {kind:?}");
        assert_eq!(reader.join().expect("reader"), b"{\"ok\":true}\n");
        assert_eq!(entries(&dir), ["out.json"], "no temporary file is left");
    }

    #[test]
    fn a_regular_file_is_replaced_whole_and_keeps_its_permissions() {
        let dir = scratch("regular");
        let file = dir.join("out.json");
        std::fs::write(&file, "old and longer than the new content").expect("seed");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        write_file(&file, b"new").expect("written");
        assert_eq!(std::fs::read(&file).expect("read"), b"new");
        let mode = std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(entries(&dir), ["out.json"]);
    }

    #[test]
    fn a_new_file_gets_the_permissions_file_create_would_give() {
        let dir = scratch("new");
        let reference = dir.join("reference");
        std::fs::File::create(&reference).expect("create");
        let file = dir.join("out.json");
        write_file(&file, b"x").expect("written");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&file), mode(&reference));
    }

    #[test]
    fn a_symlink_is_followed_and_stays_a_link() {
        let dir = scratch("link");
        let target = dir.join("target.json");
        std::fs::write(&target, "old").expect("seed");
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        write_file(&link, b"new").expect("written");
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("link")
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&target).expect("read"), b"new");
        assert_eq!(entries(&dir), ["link.json", "target.json"]);
    }

    #[test]
    fn a_link_to_a_log_is_appended_through_not_replaced() {
        let dir = scratch("log-link");
        let log = dir.join("build.log");
        std::fs::write(&log, "").expect("seed");
        let link = dir.join("stderr");
        std::os::unix::fs::symlink(&log, &link).expect("symlink");
        let held = std::fs::OpenOptions::new()
            .append(true)
            .open(&log)
            .expect("a shell's redirection");
        write_file(&link, b"contract").expect("written");
        use std::os::unix::fs::MetadataExt;
        let still = std::fs::metadata(&log).expect("log").ino();
        assert_eq!(
            held.metadata().expect("held").ino(),
            still,
            "the log is the same file"
        );
    }

    #[test]
    fn a_dangling_link_gets_its_target_made() {
        let dir = scratch("dangling");
        let target = dir.join("made.json");
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        write_file(&link, b"x").expect("written");
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("link")
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&target).expect("made"), b"x");
    }

    #[test]
    fn a_directory_is_refused_and_left_alone() {
        let dir = scratch("dir");
        let err = write_file(&dir, b"x").expect_err("refused");
        assert!(err.to_string().contains("is a directory"), "{err}");
        assert!(dir.is_dir());
    }
}
