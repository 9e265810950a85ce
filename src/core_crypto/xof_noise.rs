//! TFHE-rs's noise generator of a public [`XofSeed`]: the AES-128-CTR stream that
//! `tfhe-csprng` derives from the seed, consumed byte by byte exactly as TFHE-rs's
//! `NoiseRandomGenerator` consumes it (uniform binary values eight to a byte,
//! TUniform samples from `ceil((b + 2) / 8)` bytes each), so that the same seed
//! gives the same values in both libraries. Re-randomization draws its
//! encryptions of zero from it (`shortint::re_randomization`): the seed is public
//! (a hash of public data), which is what makes re-randomization reproducible.

use super::NoiseDistribution;
use crate::error::{Error, Result};
use tfhe_csprng::generators::aes_ctr::AesCtrParams;
use tfhe_csprng::generators::{RandomGenerator, SoftwareRandomGenerator};
pub use tfhe_csprng::seeders::XofSeed;

/// The byte stream, with hardware AES where the CPU has it (both give the same
/// bytes).
enum Stream {
    #[cfg(target_arch = "x86_64")]
    Aesni(tfhe_csprng::generators::AesniRandomGenerator),
    Software(SoftwareRandomGenerator),
}

/// TFHE-rs's `NoiseRandomGenerator` seeded with an [`XofSeed`] (see the module
/// docs).
pub(crate) struct XofNoiseGenerator {
    stream: Stream,
}

impl XofNoiseGenerator {
    /// The generator of `seed`.
    pub(crate) fn new(seed: XofSeed) -> Self {
        let params = AesCtrParams::from(seed);
        #[cfg(target_arch = "x86_64")]
        let stream = if std::arch::is_x86_feature_detected!("aes")
            && std::arch::is_x86_feature_detected!("sse2")
        {
            Stream::Aesni(tfhe_csprng::generators::AesniRandomGenerator::new(params))
        } else {
            Stream::Software(SoftwareRandomGenerator::new(params))
        };
        #[cfg(not(target_arch = "x86_64"))]
        let stream = Stream::Software(SoftwareRandomGenerator::new(params));
        Self { stream }
    }

    fn next_byte(&mut self) -> u8 {
        // A seed's stream holds 2^128 blocks: re-randomization draws a few KiB.
        let byte = match &mut self.stream {
            #[cfg(target_arch = "x86_64")]
            Stream::Aesni(g) => g.next(),
            Stream::Software(g) => g.next(),
        };
        byte.expect("the AES-CTR stream has bytes left")
    }

    /// Fills `out` with uniform bits: one byte per eight values, low bit first.
    pub(crate) fn fill_binary(&mut self, out: &mut [u64]) {
        for chunk in out.chunks_mut(8) {
            let mut byte = self.next_byte();
            for x in chunk {
                *x = u64::from(byte & 1);
                byte >>= 1;
            }
        }
    }

    /// Fills `out` with samples of `dist` modulo 2^64. TUniform only: `Err` for a
    /// Gaussian (TFHE-rs's Gaussian sampler is not reproduced).
    pub(crate) fn fill_noise(&mut self, out: &mut [u64], dist: NoiseDistribution) -> Result<()> {
        let NoiseDistribution::TUniform { log2_bound } = dist else {
            return Err(Error::InvalidParameter(
                "re-randomization draws TFHE-rs's TUniform noise; parameters with Gaussian \
                 noise cannot re-randomize"
                    .into(),
            ));
        };
        dist.validate()?;
        let bits = log2_bound + 2;
        let bytes = bits.div_ceil(8) as usize;
        let mask = u64::MAX >> (64 - bits);
        for x in out {
            let mut buf = [0u8; 8];
            for b in &mut buf[..bytes] {
                *b = self.next_byte();
            }
            let raw = u64::from_le_bytes(buf) & mask;
            let value = (raw >> 1).wrapping_add(raw & 1);
            *x = value.wrapping_sub(1 << log2_bound);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuniform_samples_stay_in_their_bound_and_reach_both_ends() {
        let mut g = XofNoiseGenerator::new(XofSeed::new(vec![7; 32], *b"TFHE_Enc"));
        let mut out = vec![0u64; 4096];
        g.fill_noise(&mut out, NoiseDistribution::TUniform { log2_bound: 2 })
            .unwrap();
        let signed: Vec<i64> = out.iter().map(|&x| x as i64).collect();
        assert!(signed.iter().all(|&x| (-4..=4).contains(&x)));
        assert!(signed.contains(&-4) && signed.contains(&4));
        let mut bits = vec![0u64; 100];
        g.fill_binary(&mut bits);
        assert!(bits.iter().all(|&b| b <= 1) && bits.contains(&0) && bits.contains(&1));
        let gaussian = NoiseDistribution::Gaussian { std_dev: 1e-10 };
        assert!(g.fill_noise(&mut out, gaussian).is_err());
    }
}
