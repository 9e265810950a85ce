//! The embedded kernel images, which of them a device loads, and which NVIDIA driver
//! they need (for the error when a driver cannot load them).

/// What an embedded image holds.
// Constructed by the generated kernels.rs, which holds none without a compiler.
#[allow(dead_code)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ImageKind {
    /// An nvcc fatbin: machine code for several architectures and PTX; the driver
    /// picks.
    Fatbin,
    /// Machine code (a cubin) for one architecture.
    Cubin,
    /// PTX for one virtual architecture, which the driver JIT-compiles.
    Ptx,
}

/// One image of a kernel module, as build.rs embeds it (`kernels.rs`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct KernelImage {
    pub(crate) kind: ImageKind,
    /// 10 x major + minor of the (virtual) architecture; 0 for a fatbin.
    pub(crate) arch: u32,
    pub(crate) bytes: &'static [u8],
}

/// The variable that makes devices load the PTX (see [`ImagePreference`]).
pub(crate) const IMAGE_VARIABLE: &str = "GPUFHE_CUDA_IMAGE";

/// Which embedded image a device loads: `GPUFHE_CUDA_IMAGE` unset, empty or `auto`,
/// the one a driver would pick (machine code first); `ptx`, the PTX, which the
/// driver JIT-compiles and which carries line information (compute-sanitizer's
/// reports then name source lines). An nvcc fatbin is loaded whole either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ImagePreference {
    /// Machine code of the device's architecture, else PTX.
    Auto,
    /// PTX no newer than the device, else machine code.
    Ptx,
}

impl ImagePreference {
    /// The preference set by `GPUFHE_CUDA_IMAGE`; `Err` naming the variable for any
    /// other value.
    pub(crate) fn from_env() -> crate::error::Result<Self> {
        Self::parse(std::env::var_os(IMAGE_VARIABLE).as_deref())
    }

    /// The preference of the variable's value (`None`: unset).
    fn parse(value: Option<&std::ffi::OsStr>) -> crate::error::Result<Self> {
        match value.map(|v| v.to_str()) {
            None => Ok(Self::Auto),
            Some(Some("" | "auto")) => Ok(Self::Auto),
            Some(Some("ptx")) => Ok(Self::Ptx),
            Some(other) => Err(crate::error::Error::InvalidParameter(format!(
                "{IMAGE_VARIABLE}={:?}: expected `auto` or `ptx`",
                other.unwrap_or("(not UTF-8)")
            ))),
        }
    }
}

/// The image a device of compute capability `cc` (10 x major + minor) loads, as a
/// driver picks inside a fatbin: machine code of the same major architecture and no
/// newer minor one (the newest such), else the newest PTX no newer than the device;
/// with [`ImagePreference::Ptx`] the PTX first.
pub(crate) fn select_image(
    images: &[KernelImage],
    cc: u32,
    preference: ImagePreference,
) -> Option<&KernelImage> {
    let newest = |kind: ImageKind, fits: &dyn Fn(u32) -> bool| {
        images
            .iter()
            .filter(|i| i.kind == kind && fits(i.arch))
            .max_by_key(|i| i.arch)
    };
    let machine_code = || newest(ImageKind::Cubin, &|arch| arch / 10 == cc / 10 && arch <= cc);
    let ptx = || newest(ImageKind::Ptx, &|arch| arch <= cc);
    newest(ImageKind::Fatbin, &|_| true).or_else(|| match preference {
        ImagePreference::Auto => machine_code().or_else(ptx),
        ImagePreference::Ptx => ptx().or_else(machine_code),
    })
}

/// What the images hold, for the error when none fits a device.
pub(crate) fn describe_images(images: &[KernelImage]) -> String {
    let names: Vec<String> = images
        .iter()
        .map(|i| match i.kind {
            ImageKind::Fatbin => "a fatbin".to_string(),
            ImageKind::Cubin => format!("sm_{}", i.arch),
            ImageKind::Ptx => format!("compute_{} PTX", i.arch),
        })
        .collect();
    names.join(", ")
}

/// The CUDA release (major, minor) whose compiler built the embedded kernels; `None`
/// when the crate was built without kernels. A driver loads the kernels' machine code
/// when it supports that major release (minor-version compatibility), and JIT-compiles
/// their PTX (for GPUs newer than the machine code) from the release itself on.
#[doc(hidden)]
pub fn kernels_cuda_version() -> Option<(u32, u32)> {
    kernels::CUDA_VERSION
}

/// The first driver branch (R525, ...) of a CUDA release, as NVIDIA's release notes
/// pair them; `None` for releases this crate does not know.
fn driver_branch(major: u32, minor: u32) -> Option<u32> {
    let branch = match (major, minor) {
        (12, 0) => 525,
        (12, 1) => 530,
        (12, 2) => 535,
        (12, 3) => 545,
        (12, 4) => 550,
        (12, 5) => 555,
        (12, 6) => 560,
        (12, 8) => 570,
        (12, 9) => 575,
        (13, 0) => 580,
        (13, 1) => 590,
        _ => return None,
    };
    Some(branch)
}

fn release(major: u32, minor: u32) -> String {
    match driver_branch(major, minor) {
        Some(branch) => format!("CUDA {major}.{minor} (R{branch}+)"),
        None => format!("CUDA {major}.{minor}"),
    }
}

/// What the kernels built with CUDA `built` need of the driver, against `driver` as
/// `cuDriverGetVersion` reports it (12000 = CUDA 12.0): the sentence added to a
/// module-load error.
pub(crate) fn driver_requirement(built: Option<(u32, u32)>, driver: Option<i32>) -> String {
    let this = match driver {
        Some(v) if v > 0 => format!("this driver supports CUDA {}.{}", v / 1000, v % 1000 / 10),
        _ => "this driver's version is unknown".to_string(),
    };
    match built {
        Some((major, minor)) => format!(
            "the kernels were built with CUDA {major}.{minor}: their machine code needs an \
             NVIDIA driver for {} or newer, their PTX (GPUs newer than sm_90) one for {}; {this}",
            release(major, 0),
            release(major, minor)
        ),
        None => this,
    }
}

/// The kernel images `build.rs` wrote (one constant per kernel source).
pub(crate) mod kernels {
    #[allow(unused_imports)]
    use super::{ImageKind, KernelImage};
    include!(concat!(env!("OUT_DIR"), "/kernels.rs"));
}

/// The kernel modules `build.rs` embeds, one per `cuda/*.cu`: what a device loads
/// when it opens. Which functions each holds is the business of the layers that
/// launch them (`backend::cuda::kernels`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KernelModule {
    /// `cuda/lwe_linear_algebra.cu`.
    LweLinearAlgebra,
    /// `cuda/programmable_bootstrap.cu` (with `multi_bit_bootstrap.cuh`).
    ProgrammableBootstrap,
    /// `cuda/keyswitch.cu`.
    Keyswitch,
    /// `cuda/linear_combination.cu`.
    LinearCombination,
    /// `cuda/noise_squashing_bootstrap.cu`.
    NoiseSquashingBootstrap,
}

impl KernelModule {
    /// Every module, in the order a device keeps them.
    pub(crate) const ALL: [Self; 5] = [
        Self::LweLinearAlgebra,
        Self::ProgrammableBootstrap,
        Self::Keyswitch,
        Self::LinearCombination,
        Self::NoiseSquashingBootstrap,
    ];

    /// The module's embedded images, `None` when the kernels were not built.
    pub(crate) fn images(self) -> Option<&'static [KernelImage]> {
        match self {
            Self::LweLinearAlgebra => kernels::LWE_LINEAR_ALGEBRA,
            Self::ProgrammableBootstrap => kernels::PROGRAMMABLE_BOOTSTRAP,
            Self::Keyswitch => kernels::KEYSWITCH,
            Self::LinearCombination => kernels::LINEAR_COMBINATION,
            Self::NoiseSquashingBootstrap => kernels::NOISE_SQUASHING_BOOTSTRAP,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_gets_the_image_a_driver_would_pick() {
        let image = |kind, arch| KernelImage {
            kind,
            arch,
            bytes: &[],
        };
        let images = [
            image(ImageKind::Cubin, 75),
            image(ImageKind::Cubin, 80),
            image(ImageKind::Cubin, 86),
            image(ImageKind::Cubin, 90),
            image(ImageKind::Ptx, 90),
        ];
        let pick = |cc| select_image(&images, cc, ImagePreference::Auto).map(|i| (i.kind, i.arch));
        assert_eq!(pick(75), Some((ImageKind::Cubin, 75)));
        assert_eq!(pick(87), Some((ImageKind::Cubin, 86)));
        assert_eq!(pick(89), Some((ImageKind::Cubin, 86)));
        assert_eq!(pick(90), Some((ImageKind::Cubin, 90)));
        assert_eq!(pick(100), Some((ImageKind::Ptx, 90)));
        assert_eq!(pick(120), Some((ImageKind::Ptx, 90)));
        assert_eq!(pick(70), None);
        let ptx = |cc| select_image(&images, cc, ImagePreference::Ptx).map(|i| (i.kind, i.arch));
        assert_eq!(ptx(90), Some((ImageKind::Ptx, 90)));
        assert_eq!(
            ptx(89),
            Some((ImageKind::Cubin, 86)),
            "no PTX old enough: machine code"
        );
        assert_eq!(describe_images(&images[3..]), "sm_90, compute_90 PTX");
        let fatbin = [image(ImageKind::Fatbin, 0)];
        assert_eq!(
            select_image(&fatbin, 70, ImagePreference::Ptx).map(|i| i.kind),
            Some(ImageKind::Fatbin)
        );
    }

    #[test]
    fn the_image_variable_is_auto_or_ptx() {
        let parse = |v: Option<&str>| ImagePreference::parse(v.map(std::ffi::OsStr::new));
        assert_eq!(parse(None).unwrap(), ImagePreference::Auto);
        assert_eq!(parse(Some("")).unwrap(), ImagePreference::Auto);
        assert_eq!(parse(Some("auto")).unwrap(), ImagePreference::Auto);
        assert_eq!(parse(Some("ptx")).unwrap(), ImagePreference::Ptx);
        let err = parse(Some("sass")).unwrap_err().to_string();
        assert!(
            err.contains("GPUFHE_CUDA_IMAGE=\"sass\": expected `auto` or `ptx`"),
            "{err}"
        );
    }

    #[test]
    fn the_requirement_names_the_driver() {
        assert_eq!(
            driver_requirement(Some((12, 0)), Some(11080)),
            "the kernels were built with CUDA 12.0: their machine code needs an NVIDIA driver \
             for CUDA 12.0 (R525+) or newer, their PTX (GPUs newer than sm_90) one for CUDA \
             12.0 (R525+); this driver supports CUDA 11.8"
        );
        let text = driver_requirement(Some((13, 0)), Some(12020));
        assert!(text.contains("CUDA 13.0 (R580+) or newer"), "{text}");
        assert!(text.ends_with("this driver supports CUDA 12.2"), "{text}");
        assert!(driver_requirement(Some((12, 7)), None).contains("CUDA 12.7; this driver's"));
    }
}
