//! A cache of compiled kernel images outside `target/`, so that every build of a
//! checkout (test and release profiles, clippy, each feature set, the fake driver's
//! builds) compiles each kernel once: a cold NVRTC build of the bootstrap takes
//! minutes of CPU, a hit a copy.
//!
//! An entry is one image: a folder named after a hash of its key, holding the key
//! (`key`) and the image (`image`). The key is everything the image depends on,
//! written out in full: the compiler's identity (path, size and time of the binary
//! or library, release, the pinned wheels, the driver script, the architectures),
//! the image's own compiler arguments, the source and every header of the kernel
//! folder, byte for byte. A hit needs the stored key to equal the computed one exactly, so
//! neither a stale entry nor a hash collision can be used. Entries are written in a
//! temporary folder and renamed into place (a build that is interrupted or runs
//! beside another leaves no half entry), and the least recently used are removed
//! once the cache passes [`LIMIT_BYTES`].
//!
//! Where: `GPUFHE_KERNEL_CACHE` (a folder; `off` disables the cache), else
//! `.cuda/kernel-cache/` of a checkout that has the pip compiler of
//! scripts/install-nvcc.sh, else nowhere (a crate built from a registry compiles
//! into its `OUT_DIR` as before).

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The size past which the least recently used entries are removed.
const LIMIT_BYTES: u64 = 1 << 30;

/// The cache of one build: its folder (if any) and the key material every image of
/// this build shares.
pub struct KernelCache {
    dir: Option<PathBuf>,
    shared_key: Vec<u8>,
}

impl KernelCache {
    /// The cache for kernels built by the compiler described by `identity`, with the
    /// kernel folder `kernel_dir` (whose non-`.cu` files, in sub-folders too, are
    /// headers every source may include; it holds only what the compiler reads: the
    /// CPU emulation lives in testing/cuda-emu/).
    pub fn open(manifest_dir: &Path, identity: &str, kernel_dir: &Path) -> Result<Self, String> {
        let dir = match std::env::var_os("GPUFHE_KERNEL_CACHE") {
            Some(v) if v == "off" => None,
            Some(v) if !v.is_empty() => Some(PathBuf::from(v)),
            _ => {
                let pip = manifest_dir.join(".cuda");
                pip.is_dir().then(|| pip.join("kernel-cache"))
            }
        };
        let mut shared_key = Vec::new();
        push_part(&mut shared_key, "compiler", identity.as_bytes());
        let headers = kernel_files(kernel_dir)?;
        for (name, bytes) in headers.iter().filter(|(name, _)| !name.ends_with(".cu")) {
            push_part(&mut shared_key, &format!("header {name}"), bytes);
        }
        Ok(KernelCache { dir, shared_key })
    }

    /// Puts the image of `src` compiled with `flags` (every argument of the compiler
    /// but the output and the source) at `out`: copied from the cache on a hit, else
    /// made by `compile` (which writes `out`) and stored.
    pub fn image(
        &self,
        src: &Path,
        flags: &[String],
        out: &Path,
        compile: impl FnOnce() -> Result<(), String>,
    ) -> Result<(), String> {
        let Some(dir) = &self.dir else {
            return compile();
        };
        let source = fs::read(src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
        let mut key = self.shared_key.clone();
        push_part(&mut key, "flags", format!("{flags:?}").as_bytes());
        let file_name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = file_name(src).unwrap_or_default();
        push_part(&mut key, &format!("source {name}"), &source);
        let mut hasher = DefaultHasher::new();
        key.hash(&mut hasher);
        let image = file_name(out).unwrap_or_default();
        let entry = dir.join(format!("{:016x}-{image}", hasher.finish()));
        if fs::read(entry.join("key")).is_ok_and(|stored| stored == key)
            && fs::copy(entry.join("image"), out).is_ok()
        {
            // Recently used: kept by the size limit.
            let _ =
                fs::File::open(entry.join("key")).and_then(|f| f.set_modified(SystemTime::now()));
            return Ok(());
        }
        compile()?;
        // A cache that cannot be written costs time, never the build.
        if store(dir, &entry, &key, out).is_ok() {
            prune(dir);
        }
        Ok(())
    }
}

/// Appends one named part to a key: its name and length on a line, then its bytes.
fn push_part(key: &mut Vec<u8>, name: &str, bytes: &[u8]) {
    key.extend_from_slice(format!("\n{name} {}\n", bytes.len()).as_bytes());
    key.extend_from_slice(bytes);
}

/// Every file of the kernel folder `dir`, in sub-folders too (the `.cu` sources and
/// the headers): its path relative to `dir` (`/`-separated) and its bytes, by path.
pub fn kernel_files(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files = Vec::new();
    collect_files(dir, dir, &mut files)?;
    files.sort();
    Ok(files)
}

fn collect_files(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            collect_files(root, &path, out)?;
        } else {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            let relative: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let bytes =
                fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            out.push((relative.join("/"), bytes));
        }
    }
    Ok(())
}

/// Writes the entry in a temporary folder, then renames it into place.
fn store(dir: &Path, entry: &Path, key: &[u8], image: &Path) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    let unique = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tmp = dir.join(format!(".tmp-{}-{unique}", std::process::id()));
    let written = fs::create_dir(&tmp)
        .and_then(|()| fs::copy(image, tmp.join("image")))
        .and_then(|_| fs::write(tmp.join("key"), key));
    let placed = written.and_then(|()| {
        // An entry of the same name with another key (a collision, or one a
        // concurrent build just wrote): replaced.
        if entry.exists() {
            let _ = fs::remove_dir_all(entry);
        }
        fs::rename(&tmp, entry)
    });
    if placed.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    placed
}

/// Removes the least recently used entries past [`LIMIT_BYTES`].
fn prune(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut found: Vec<(SystemTime, u64, PathBuf)> = entries
        .filter_map(|e| {
            let path = e.ok()?.path();
            let used = fs::metadata(path.join("key")).ok()?.modified().ok()?;
            let size = fs::metadata(path.join("image")).ok()?.len();
            Some((used, size, path))
        })
        .collect();
    found.sort_by_key(|entry| std::cmp::Reverse(entry.0));
    let mut total = 0u64;
    for (_, size, path) in found {
        total = total.saturating_add(size);
        if total > LIMIT_BYTES {
            let _ = fs::remove_dir_all(path);
        }
    }
}
