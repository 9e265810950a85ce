//! The common reference string of the proofs ([`CompactPkeCrs`]): made from the
//! compact public-key encryption parameters, as TFHE-rs makes it.

use super::{CompactPkeZkScheme, ZkMSBZeroPaddingBitCount};
use crate::core_crypto::{LweCiphertextCount, LweDimension, NoiseDistribution};
use crate::error::{Error, Result};
use crate::high_level::tfhe_rs::wire::zk::{CompactPkeCrs as WireCrs, Curve};
use crate::high_level::tfhe_rs::{versionize_through_wire, TfheRsForm};
use crate::high_level::{Config, ParameterSetConformant};
use crate::shortint::parameters::SupportedCompactPkeZkScheme;
use crate::shortint::CompactPublicKeyEncryptionParameters as Pke;
use tfhe_safe_serialize::ParameterSetConformant as ZkConformant;
use tfhe_zk_pok::proofs::{pke, pke_v2, CompactPkeCrsConformanceParams};

/// The common reference string (CRS) of zero-knowledge proofs of compact
/// public-key encryption (TFHE-rs's `zk::CompactPkeCrs`): public values shared by
/// whoever proves and whoever verifies, made once for a set of encryption
/// parameters and a largest number of blocks per proof. Provers and verifiers
/// must use the same CRS. It reads and writes in TFHE-rs's format, so a CRS made
/// by TFHE-rs serves here and the reverse.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
/// use gpufhe::shortint::parameters::{
///     PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
///     PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE,
/// };
/// use gpufhe::zk::CompactPkeCrs;
/// use gpufhe::ConfigBuilder;
/// let config = ConfigBuilder::default()
///     .with_insecure_custom_parameters(TEST)?
///     .use_dedicated_compact_public_key_parameters((PKE, KS))
///     .build();
/// // Up to 16 bits per proof: 4 blocks of 4 bits (message and carry).
/// let crs = CompactPkeCrs::from_config(config, 16)?;
/// assert_eq!(crs.max_num_messages().0, 4);
/// assert_eq!(crs.lwe_dimension().0, 512);
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct CompactPkeCrs {
    pub(crate) inner: WireCrs,
}

/// The random generator of CRS generation (the system's).
fn crs_rng() -> rand::rngs::StdRng {
    use rand::SeedableRng;
    rand::rngs::StdRng::from_entropy()
}

impl CompactPkeCrs {
    /// The CRS for lists of `config`'s compact public keys (its dedicated
    /// public-key parameters, else those of its blocks) proving up to
    /// `max_bit_size` bits at once, packed as
    /// [`build_with_proof_packed`](crate::CompactCiphertextListBuilder::build_with_proof_packed)
    /// packs them (TFHE-rs's function of this name). `Err` if the parameters allow
    /// no proofs, or their carry modulus is below their message modulus.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// use gpufhe::shortint::parameters::{
    ///     PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
    ///     PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE,
    /// };
    /// use gpufhe::zk::CompactPkeCrs;
    /// use gpufhe::ConfigBuilder;
    /// let plain = ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// // The blocks' own public-key parameters allow no proofs.
    /// assert!(CompactPkeCrs::from_config(plain.clone().build(), 8).is_err());
    /// let config = plain.use_dedicated_compact_public_key_parameters((PKE, KS)).build();
    /// let crs = CompactPkeCrs::from_config(config, 8)?;
    /// assert_eq!(crs.max_num_messages().0, 2);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn from_config(config: Config, max_bit_size: usize) -> Result<Self> {
        let pke = config.public_key_encryption_parameters()?;
        if pke.carry_modulus.0 < pke.message_modulus.0 {
            return Err(Error::InvalidParameter(
                "a CRS for packed proven lists needs a carry modulus at least the message modulus"
                    .into(),
            ));
        }
        let bits = (pke.carry_modulus.0 * pke.message_modulus.0).ilog2() as usize;
        Self::from_pke(pke, LweCiphertextCount(max_bit_size.div_ceil(bits.max(1))))
    }

    /// The CRS for proofs of up to `max_num_message` blocks encrypted with compact
    /// public-key parameters `params` (TFHE-rs's function of this name; the scheme
    /// is the parameters' `zk_scheme`). `Err` if they allow no proofs, or the
    /// count is 0 or above their dimension.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// use gpufhe::zk::CompactPkeCrs;
    /// let crs = CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(3))?;
    /// assert_eq!(crs.max_num_messages().0, 3);
    /// // The plaintext modulus counts the padding bit: 2 * 4 * 4.
    /// assert_eq!(crs.plaintext_modulus(), 32);
    /// assert!(CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(513)).is_err());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn from_shortint_params<P, E>(
        params: P,
        max_num_message: LweCiphertextCount,
    ) -> Result<Self>
    where
        P: TryInto<Pke, Error = E>,
        Error: From<E>,
    {
        Self::from_pke(params.try_into()?, max_num_message)
    }

    /// [`CompactPkeCrs::from_shortint_params`] of parameters already converted.
    fn from_pke(pke: Pke, max_num_message: LweCiphertextCount) -> Result<Self> {
        let scheme = match pke.zk_scheme {
            SupportedCompactPkeZkScheme::V1 => CompactPkeZkScheme::V1,
            SupportedCompactPkeZkScheme::V2 => CompactPkeZkScheme::V2,
            SupportedCompactPkeZkScheme::ZkNotSupported => {
                return Err(Error::InvalidParameter(
                    "zero-knowledge proofs of encryption are not supported by these compact \
                     public-key parameters (their zk_scheme is ZkNotSupported)"
                        .into(),
                ))
            }
        };
        let (d, k, bound, t) = crs_parameters(&pke, max_num_message, scheme)?;
        let mut rng = crs_rng();
        let padding = ZkMSBZeroPaddingBitCount(1).0;
        let inner = match scheme {
            CompactPkeZkScheme::V1 => {
                WireCrs::PkeV1(pke::crs_gen::<Curve>(d, k, bound, 0, t, padding, &mut rng))
            }
            CompactPkeZkScheme::V2 => WireCrs::PkeV2(pke_v2::crs_gen::<Curve>(
                d, k, bound, 0, t, padding, &mut rng,
            )),
        };
        Ok(Self { inner })
    }

    /// The most blocks one proof covers (lists with more are proven in parts).
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// let crs = gpufhe::zk::CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(2))?;
    /// assert_eq!(crs.max_num_messages(), LweCiphertextCount(2));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn max_num_messages(&self) -> LweCiphertextCount {
        LweCiphertextCount(match &self.inner {
            WireCrs::PkeV1(p) => p.k,
            WireCrs::PkeV2(p) => p.k,
        })
    }

    /// The dimension of the encryption key it is for.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// let crs = gpufhe::zk::CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(2))?;
    /// assert_eq!(crs.lwe_dimension(), PKE.encryption_lwe_dimension);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn lwe_dimension(&self) -> LweDimension {
        LweDimension(match &self.inner {
            WireCrs::PkeV1(p) => p.d,
            WireCrs::PkeV2(p) => p.d,
        })
    }

    /// The plaintext modulus it is for, padding bit included (`2·M·C`).
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// let crs = gpufhe::zk::CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(2))?;
    /// assert_eq!(crs.plaintext_modulus(), 2 * 4 * 4);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn plaintext_modulus(&self) -> u64 {
        match &self.inner {
            WireCrs::PkeV1(p) => p.t,
            WireCrs::PkeV2(p) => p.t,
        }
    }

    /// The exclusive bound on the noise of the encryptions it proves.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// let crs = gpufhe::zk::CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(2))?;
    /// // TUniform(20) noise lies in [-2^20, 2^20].
    /// assert_eq!(crs.exclusive_max_noise(), (1 << 20) + 1);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn exclusive_max_noise(&self) -> u64 {
        match &self.inner {
            WireCrs::PkeV1(p) => p.exclusive_max_noise(),
            WireCrs::PkeV2(p) => p.exclusive_max_noise(),
        }
    }

    /// The proof scheme it is for.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// use gpufhe::zk::{CompactPkeCrs, CompactPkeZkScheme};
    /// let crs = CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(2))?;
    /// assert!(matches!(crs.scheme_version(), CompactPkeZkScheme::V2));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn scheme_version(&self) -> CompactPkeZkScheme {
        match &self.inner {
            WireCrs::PkeV1(_) => CompactPkeZkScheme::V1,
            WireCrs::PkeV2(_) => CompactPkeZkScheme::V2,
        }
    }

    /// `Err` unless its scalar parameters are in the ranges the proof system
    /// needs (a CRS read from untrusted bytes; its points are checked by
    /// [`ParameterSetConformant::is_conformant`]).
    pub(crate) fn check_parameters(&self) -> Result<()> {
        let valid = match &self.inner {
            // Version 1 has no check of its scalars alone: its full check.
            WireCrs::PkeV1(p) => p.is_usable(),
            WireCrs::PkeV2(p) => p.has_valid_params(),
        };
        if valid {
            Ok(())
        } else {
            Err(Error::InvalidParameter(
                "the CRS's parameters are outside the proof system's ranges".into(),
            ))
        }
    }
}

/// The CRS parameters of `pke` for `count` blocks: the dimension, the count, the
/// noise bound of `scheme` and the plaintext modulus with its padding bit
/// (TFHE-rs's preparation, its checks included).
fn crs_parameters(
    pke: &Pke,
    count: LweCiphertextCount,
    scheme: CompactPkeZkScheme,
) -> Result<(usize, usize, u64, u64)> {
    let d = pke.encryption_lwe_dimension.0;
    if count.0 == 0 || count.0 > d {
        return Err(Error::InvalidParameter(format!(
            "a CRS for {} blocks per proof: it must be between 1 and the key's dimension {d}",
            count.0
        )));
    }
    let NoiseDistribution::TUniform { log2_bound } = pke.encryption_noise_distribution else {
        return Err(Error::InvalidParameter(
            "zero-knowledge proofs need a bounded (TUniform) encryption noise".into(),
        ));
    };
    if log2_bound >= 62 {
        return Err(Error::InvalidParameter(format!(
            "a TUniform({log2_bound}) noise is too wide for a proof"
        )));
    }
    // TUniform(b) lies in [-2^b, 2^b]: version 2 proves the inclusive bound, version 1
    // needs a power of two above it.
    let bound = match scheme {
        CompactPkeZkScheme::V1 => 1u64 << (log2_bound + 1),
        CompactPkeZkScheme::V2 => 1u64 << log2_bound,
    };
    let t = pke
        .message_modulus
        .0
        .checked_mul(pke.carry_modulus.0)
        .and_then(|mc| mc.checked_mul(2))
        .filter(|t| t.is_power_of_two() && *t >= 4)
        .ok_or_else(|| {
            Error::InvalidParameter("a plaintext modulus the proofs cannot take".into())
        })?;
    Ok((d, count.0, bound, t))
}

/// The conformance parameters of a CRS for `params` and `max_num_message` blocks
/// per proof (TFHE-rs's `zk::new_compact_pke_crs_conformance_params`, for
/// version 2 proofs).
///
/// ```
/// use gpufhe::conformance::ParameterSetConformant;
/// use gpufhe::core_crypto::LweCiphertextCount;
/// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
/// use gpufhe::zk::{new_compact_pke_crs_conformance_params, CompactPkeCrs};
/// let crs = CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(2))?;
/// assert!(crs.is_conformant(&new_compact_pke_crs_conformance_params(PKE, LweCiphertextCount(2))?));
/// assert!(!crs.is_conformant(&new_compact_pke_crs_conformance_params(PKE, LweCiphertextCount(3))?));
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub fn new_compact_pke_crs_conformance_params<E, P>(
    value: P,
    max_num_message: LweCiphertextCount,
) -> Result<CompactPkeCrsConformanceParams>
where
    P: TryInto<Pke, Error = E>,
    Error: From<E>,
{
    let pke: Pke = value.try_into()?;
    let (d, k, bound, t) = crs_parameters(&pke, max_num_message, CompactPkeZkScheme::V2)?;
    Ok(CompactPkeCrsConformanceParams::new(
        d,
        k,
        bound,
        0,
        t,
        ZkMSBZeroPaddingBitCount(1).0,
    ))
}

impl ParameterSetConformant for CompactPkeCrs {
    type ParameterSet = CompactPkeCrsConformanceParams;

    /// Whether the CRS is of these parameters and its points are valid points of
    /// the curve's groups (TFHE-rs's check).
    fn is_conformant(&self, parameter_set: &Self::ParameterSet) -> bool {
        match &self.inner {
            WireCrs::PkeV1(p) => p.is_conformant(parameter_set),
            WireCrs::PkeV2(p) => p.is_conformant(parameter_set),
        }
    }
}

impl TfheRsForm for CompactPkeCrs {
    type Wire = WireCrs;

    fn to_wire(&self) -> Result<WireCrs> {
        Ok(self.inner.clone())
    }

    fn from_wire(wire: WireCrs) -> Result<Self> {
        let crs = Self { inner: wire };
        crs.check_parameters()?;
        Ok(crs)
    }
}

versionize_through_wire!("zk::CompactPkeCrs", WireCrs, [] CompactPkeCrs);

impl serde::Serialize for CompactPkeCrs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.inner.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for CompactPkeCrs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Self::from_wire(WireCrs::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}
