//! The packaged kernel images of a published crate (build/packaged_kernels.rs, used
//! by build.rs without a CUDA compiler): the manifest's hash must equal that of the
//! sources being built, so that images made from other sources, flags, driver
//! script or compiler pins are refused with the reason; SHA-256 against its
//! standard's vectors. Needs no GPU. CI builds the real package without a compiler
//! and runs its kernels on the fake driver (.ci/run, `packaged_kernels`).

#[path = "../../build/packaged_kernels.rs"]
mod packaged_kernels;

use packaged_kernels::sha256_hex;
use std::fs;
use std::path::{Path, PathBuf};

const PINS: &str = "nvidia-cuda-nvrtc-cu12==12.0.140 nvidia-cuda-nvcc-cu12==12.0.140";

/// A package root of its own with the two scripts the hash reads.
fn package(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpufhe-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("scripts")).unwrap();
    let install = format!(
        "set -e\npins=(\n  {}\n)\ntool_pins=(\n  nvidia-cuda-nvdisasm==13.2.51\n)\n",
        PINS.replace(' ', "\n  ")
    );
    fs::write(dir.join("scripts/install-nvcc.sh"), install).unwrap();
    fs::write(dir.join("scripts/nvrtc-compile.py"), "# driver\n").unwrap();
    dir
}

fn kernel_files(source: &str) -> Vec<(String, Vec<u8>)> {
    vec![
        ("a.cu".to_string(), source.as_bytes().to_vec()),
        ("torus.cuh".to_string(), b"// header".to_vec()),
    ]
}

fn images(flags: &[&str]) -> Vec<(String, Vec<String>)> {
    let flags: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
    vec![("a.sm_90".to_string(), flags)]
}

fn hash(root: &Path, source: &str, flags: &[&str]) -> String {
    packaged_kernels::sources_hash(root, &kernel_files(source), &images(flags)).unwrap()
}

/// Packages one image of `a.cu` (`source`, compiled with `--arch sm_90`) under `root`.
fn write_package(root: &Path, source: &str) {
    let image = root.join("a.sm_90.built");
    fs::write(&image, b"\x7fELF image").unwrap();
    let hash = hash(root, source, &["--arch", "sm_90"]);
    let images = [("a.sm_90".to_string(), image)];
    packaged_kernels::write(&root.join("kernels"), &hash, (12, 0), PINS, &images).unwrap();
}

#[test]
fn matching_sources_use_the_packaged_images() {
    let root = package("packaged-match");
    write_package(&root, "kernel v1");
    let packaged =
        packaged_kernels::load(&root, &hash(&root, "kernel v1", &["--arch", "sm_90"])).unwrap();
    assert_eq!(packaged.cuda, (12, 0));
    assert_eq!(packaged.images.len(), 1);
    assert_eq!(packaged.images[0].0, "a.sm_90");
    assert_eq!(fs::read(&packaged.images[0].1).unwrap(), b"\x7fELF image");
    // Packaging again replaces the folder.
    write_package(&root, "kernel v2");
    let v2 = hash(&root, "kernel v2", &["--arch", "sm_90"]);
    assert!(packaged_kernels::load(&root, &v2).is_ok());
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn other_sources_flags_driver_or_pins_refuse_the_images() {
    let root = package("packaged-stale");
    write_package(&root, "kernel v1");
    let stale = |hash: &str| {
        let err = packaged_kernels::load(&root, hash)
            .err()
            .expect("stale images refused");
        assert!(err.contains("stale"), "{err}");
    };
    // An edited kernel, other flags (line information), another header.
    stale(&hash(&root, "kernel v2", &["--arch", "sm_90"]));
    let lineinfo = ["--arch", "sm_90", "-X=--generate-line-info"];
    stale(&hash(&root, "kernel v1", &lineinfo));
    let mut files = kernel_files("kernel v1");
    files[1].1 = b"// header, edited".to_vec();
    let flags = images(&["--arch", "sm_90"]);
    stale(&packaged_kernels::sources_hash(&root, &files, &flags).unwrap());
    // Another NVRTC driver script, then other pins.
    let driver = root.join("scripts/nvrtc-compile.py");
    fs::write(&driver, "# driver, edited\n").unwrap();
    stale(&hash(&root, "kernel v1", &["--arch", "sm_90"]));
    fs::write(&driver, "# driver\n").unwrap();
    assert!(packaged_kernels::load(&root, &hash(&root, "kernel v1", &["--arch", "sm_90"])).is_ok());
    let install = root.join("scripts/install-nvcc.sh");
    let text = fs::read_to_string(&install).unwrap();
    fs::write(&install, text.replace("12.0.140", "12.1.105")).unwrap();
    stale(&hash(&root, "kernel v1", &["--arch", "sm_90"]));
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn missing_or_altered_images_are_refused() {
    let root = package("packaged-missing");
    let current = hash(&root, "kernel v1", &["--arch", "sm_90"]);
    let err = packaged_kernels::load(&root, &current).err().unwrap();
    assert!(err.contains("no packaged kernel images"), "{err}");
    write_package(&root, "kernel v1");
    fs::write(root.join("kernels/a.sm_90"), b"truncated").unwrap();
    let err = packaged_kernels::load(&root, &current).err().unwrap();
    assert!(
        err.contains("kernels/a.sm_90 is missing or not the size"),
        "{err}"
    );
    fs::remove_file(root.join("kernels/a.sm_90")).unwrap();
    assert!(packaged_kernels::load(&root, &current).is_err());
    fs::write(root.join("kernels/manifest"), "sources\n").unwrap();
    let err = packaged_kernels::load(&root, &current).err().unwrap();
    assert!(err.contains("malformed"), "{err}");
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_pins_are_those_that_install_nvcc_installs() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pins = packaged_kernels::compiler_pins(repo).unwrap();
    let pins: Vec<&str> = pins.split(' ').collect();
    assert_eq!(pins.len(), 3, "{pins:?}");
    assert!(pins
        .iter()
        .all(|p| p.starts_with("nvidia-cuda-") && p.contains("==12.0.")));
    let root = package("packaged-pins");
    assert_eq!(packaged_kernels::compiler_pins(&root).unwrap(), PINS);
    fs::write(root.join("scripts/install-nvcc.sh"), "pins=nothing\n").unwrap();
    assert!(packaged_kernels::compiler_pins(&root).is_err());
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn sha256_matches_the_standard_vectors() {
    let vectors = [
        (
            &b""[..],
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        ),
        (
            b"abc",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        ),
        (
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
        ),
    ];
    for (input, digest) in vectors {
        assert_eq!(sha256_hex(input), digest);
    }
    let million = vec![b'a'; 1_000_000];
    assert_eq!(
        sha256_hex(&million),
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    );
}
