//! The input of the `config_builder` target: every field of a
//! [`ShortintParameters`], little endian, in declaration order, each dimension,
//! decomposition, modulus and level as a `u64`, a noise distribution as a variant
//! byte (even: TUniform, odd: Gaussian) and a `u64` (the bound's log, or the
//! standard deviation's bits), the failure probability as `f64` bits, the modulus
//! switch as a byte (even: standard), the security as a `u32`. Missing bytes read
//! as zeros, extra bytes are ignored.

use gpufhe::core_crypto::{
    DecompositionBaseLog, DecompositionLevelCount, GlweDimension, LweDimension, ModulusSwitchType,
    NoiseDistribution, PolynomialSize,
};
use gpufhe::shortint::{PbsKind, ShortintParameters};

/// Reads little-endian fields, zeros past the end.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let n = N.min(self.0.len());
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        out
    }

    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.bytes())
    }

    fn usize(&mut self) -> usize {
        self.u64() as usize
    }

    fn noise(&mut self) -> NoiseDistribution {
        let [variant] = self.bytes();
        let value = self.u64();
        if variant % 2 == 0 {
            NoiseDistribution::TUniform {
                log2_bound: value as u32,
            }
        } else {
            NoiseDistribution::Gaussian {
                std_dev: f64::from_bits(value),
            }
        }
    }
}

/// The parameters `data` encodes.
pub fn parameters_from_bytes(data: &[u8]) -> ShortintParameters {
    let mut r = Reader(data);
    ShortintParameters {
        lwe_dimension: LweDimension(r.usize()),
        glwe_dimension: GlweDimension(r.usize()),
        polynomial_size: PolynomialSize(r.usize()),
        lwe_noise_distribution: r.noise(),
        glwe_noise_distribution: r.noise(),
        pbs_base_log: DecompositionBaseLog(r.usize()),
        pbs_level: DecompositionLevelCount(r.usize()),
        ks_base_log: DecompositionBaseLog(r.usize()),
        ks_level: DecompositionLevelCount(r.usize()),
        message_modulus: r.u64(),
        carry_modulus: r.u64(),
        max_noise_level: r.u64(),
        log2_p_fail: f64::from_bits(r.u64()),
        modulus_switch: if r.bytes::<1>()[0] % 2 == 0 {
            ModulusSwitchType::Standard
        } else {
            ModulusSwitchType::CenteredMeanNoiseReduction
        },
        security_bits: u32::from_le_bytes(r.bytes()),
        // 0: classical; g > 0: multi-bit of grouping factor g (any byte, so that
        // validation sees factors that are out of range or do not divide n).
        pbs_kind: match r.bytes::<1>()[0] {
            0 => PbsKind::Classical,
            g => PbsKind::MultiBit {
                grouping_factor: g as usize,
            },
        },
    }
}

/// The bytes [`parameters_from_bytes`] reads back as `p` (corpus seeds).
pub fn parameters_to_bytes(p: &ShortintParameters) -> Vec<u8> {
    let mut out = Vec::new();
    let u64 = |out: &mut Vec<u8>, v: u64| out.extend_from_slice(&v.to_le_bytes());
    u64(&mut out, p.lwe_dimension.0 as u64);
    u64(&mut out, p.glwe_dimension.0 as u64);
    u64(&mut out, p.polynomial_size.0 as u64);
    for noise in [p.lwe_noise_distribution, p.glwe_noise_distribution] {
        let (variant, value) = match noise {
            NoiseDistribution::TUniform { log2_bound } => (0, log2_bound as u64),
            NoiseDistribution::Gaussian { std_dev } => (1, std_dev.to_bits()),
        };
        out.push(variant);
        u64(&mut out, value);
    }
    for v in [
        p.pbs_base_log.0,
        p.pbs_level.0,
        p.ks_base_log.0,
        p.ks_level.0,
    ] {
        u64(&mut out, v as u64);
    }
    for v in [p.message_modulus, p.carry_modulus, p.max_noise_level] {
        u64(&mut out, v);
    }
    u64(&mut out, p.log2_p_fail.to_bits());
    out.push(match p.modulus_switch {
        ModulusSwitchType::Standard => 0,
        ModulusSwitchType::CenteredMeanNoiseReduction => 1,
    });
    out.extend_from_slice(&p.security_bits.to_le_bytes());
    out.push(p.pbs_kind.grouping_factor().map_or(0, |g| g as u8));
    out
}
