//! The kernel images that the published package ships, for machines without a CUDA
//! compiler: `kernels/` in the package's root, made at publish time by
//! scripts/package-kernels.sh (never committed) with the pinned CUDA 12.0 NVRTC of
//! scripts/install-nvcc.sh, through build.rs's own compile path and kernel cache.
//!
//! Its manifest (`kernels/manifest`) ties the images to the SHA-256 of everything
//! they depend on that the package holds: every file of `cuda/` (sources and
//! headers), the NVRTC driver script, the compiler's pins and each image's file name
//! and compiler arguments (architecture; line information, which the packaged images
//! leave out). build.rs embeds them only when no compiler is found and that hash
//! equals the hash of the sources being built, so stale images are never used.

use std::fs;
use std::path::{Path, PathBuf};

#[path = "../src/core_crypto/sha256.rs"]
mod sha256;

/// The SHA-256 digest of `data`, in lowercase hexadecimal.
pub fn sha256_hex(data: &[u8]) -> String {
    sha256::sha256(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The folder of the packaged images, in the package's root.
pub const DIR: &str = "kernels";
/// The manifest's file name in [`DIR`].
const MANIFEST: &str = "manifest";
/// The script that installs the compiler, whose `pins=(...)` list the wheels.
const PINS_SCRIPT: &str = "scripts/install-nvcc.sh";
/// The script through which build.rs drives NVRTC.
const DRIVER_SCRIPT: &str = "scripts/nvrtc-compile.py";

/// Packaged images whose manifest matched: the CUDA release that built them and
/// each image's file name and path.
pub struct Packaged {
    pub cuda: (u32, u32),
    pub images: Vec<(String, PathBuf)>,
}

/// The hash the manifest must hold for the images of this build: `kernel_files` are
/// the files of `cuda/` (path relative to it, bytes), `images` each image's file
/// name and compiler arguments; the scripts are read from `manifest_dir`.
pub fn sources_hash(
    manifest_dir: &Path,
    kernel_files: &[(String, Vec<u8>)],
    images: &[(String, Vec<String>)],
) -> Result<String, String> {
    let driver = fs::read(manifest_dir.join(DRIVER_SCRIPT))
        .map_err(|e| format!("cannot read {DRIVER_SCRIPT}: {e}"))?;
    let mut material = Vec::new();
    let mut part = |name: &str, bytes: &[u8]| {
        material.extend_from_slice(format!("\n{name} {}\n", bytes.len()).as_bytes());
        material.extend_from_slice(bytes);
    };
    part("pins", compiler_pins(manifest_dir)?.as_bytes());
    part("driver", &driver);
    for (name, bytes) in kernel_files {
        part(&format!("file {name}"), bytes);
    }
    for (file, flags) in images {
        part(&format!("image {file}"), flags.join("\n").as_bytes());
    }
    Ok(sha256_hex(&material))
}

/// The pinned compiler wheels as scripts/install-nvcc.sh lists them in `pins=(...)`,
/// space-separated: what it writes into `.cuda/.gpufhe-pins` when it installs them.
pub fn compiler_pins(manifest_dir: &Path) -> Result<String, String> {
    let text = fs::read_to_string(manifest_dir.join(PINS_SCRIPT))
        .map_err(|e| format!("cannot read {PINS_SCRIPT}: {e}"))?;
    let mut lines = text.lines().skip_while(|l| l.trim() != "pins=(").skip(1);
    let mut pins = Vec::new();
    for line in lines.by_ref() {
        match line.trim() {
            ")" => return Ok(pins.join(" ")),
            pin => pins.push(pin.to_string()),
        }
    }
    Err(format!("no `pins=(` ... `)` list in {PINS_SCRIPT}"))
}

/// Writes `images` (file name, path of the image) and their manifest into `dir`,
/// replacing what it held: a folder beside it is filled, then renamed into place.
pub fn write(
    dir: &Path,
    hash: &str,
    cuda: (u32, u32),
    pins: &str,
    images: &[(String, PathBuf)],
) -> Result<(), String> {
    let tmp = dir.with_extension("tmp");
    let io = |what: &str, path: &Path, e: std::io::Error| format!("{what} {}: {e}", path.display());
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).map_err(|e| io("cannot create", &tmp, e))?;
    let mut manifest = format!(
        "# gpufhe's kernel images (scripts/package-kernels.sh). build.rs embeds them when\n\
         # it finds no CUDA compiler and `sources` equals the hash of the kernel sources,\n\
         # driver script, compiler pins and image flags it builds.\n\
         # compiler: {pins}\n\
         sources {hash}\ncuda {}.{}\n",
        cuda.0, cuda.1
    );
    for (file, path) in images {
        let size = fs::copy(path, tmp.join(file)).map_err(|e| io("cannot copy", path, e))?;
        manifest.push_str(&format!("image {file} {size}\n"));
    }
    fs::write(tmp.join(MANIFEST), manifest).map_err(|e| io("cannot write", &tmp, e))?;
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| io("cannot remove", dir, e))?;
    }
    fs::rename(&tmp, dir).map_err(|e| io("cannot rename", &tmp, e))
}

/// The packaged images of the package at `manifest_dir` if its manifest's hash is
/// `hash` and every image it lists is there at its size; `Err` with why not.
pub fn load(manifest_dir: &Path, hash: &str) -> Result<Packaged, String> {
    let dir = manifest_dir.join(DIR);
    let path = dir.join(MANIFEST);
    let text = fs::read_to_string(&path)
        .map_err(|e| format!("no packaged kernel images ({DIR}/{MANIFEST}: {e})"))?;
    let malformed = |line: &str| format!("{DIR}/{MANIFEST} is malformed at {line:?}");
    let (mut stored, mut cuda, mut listed) = (None, None, Vec::new());
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["sources", h] => stored = Some(h.to_string()),
            ["cuda", version] => {
                let parsed = version
                    .split_once('.')
                    .and_then(|(major, minor)| Some((major.parse().ok()?, minor.parse().ok()?)));
                cuda = Some(parsed.ok_or_else(|| malformed(line))?);
            }
            ["image", file, size] => {
                let size: u64 = size.parse().map_err(|_| malformed(line))?;
                listed.push((file.to_string(), size));
            }
            _ => return Err(malformed(line)),
        }
    }
    let (Some(stored), Some(cuda)) = (stored, cuda) else {
        return Err(format!(
            "{DIR}/{MANIFEST} lacks its sources hash or CUDA release"
        ));
    };
    if stored != hash {
        return Err(format!(
            "the packaged kernel images are stale: made from sources hashed {}, while this \
             build's kernel sources, driver script, compiler pins and image flags \
             (GPUFHE_CUDA_ARCHS, GPUFHE_CUDA_LINEINFO) hash {}",
            short(&stored),
            short(hash)
        ));
    }
    let mut images = Vec::new();
    for (file, size) in listed {
        let image = dir.join(&file);
        if file.contains(['/', '\\']) || fs::metadata(&image).map(|m| m.len()).ok() != Some(size) {
            return Err(format!(
                "the packaged image {DIR}/{file} is missing or not the size of the manifest's"
            ));
        }
        images.push((file, image));
    }
    Ok(Packaged { cuda, images })
}

/// The first 16 digits of a hash, for messages.
pub fn short(hash: &str) -> &str {
    hash.get(..16).unwrap_or(hash)
}
