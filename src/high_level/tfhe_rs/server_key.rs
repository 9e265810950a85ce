//! Server keys, plain and compressed, between gpufhe and TFHE-rs's data.
//!
//! The keys are the same: the keyswitching key with its levels in the other order,
//! the bootstrap key with its GGSW rows in the other order, the Fourier bootstrap
//! key in natural DFT order, scaled by `2^-64` (an exact permutation and scaling,
//! so a TFHE-rs key is written back byte for byte), and seeded keys' bodies and
//! seeds as they are (`core_crypto::algorithms::tfhe_rs_layout`). TFHE-rs's keys do
//! not hold their noise parameters: they are those of the known parameter set
//! whose shape they have. TFHE-rs's dedicated OPRF key is kept, to be written back.

use super::compression_keys::{
    compressed_compression_keys_from_wire, compressed_compression_keys_to_wire,
    compression_keys_from_wire, compression_keys_to_wire,
};
use super::fourier::{fourier_polynomials, fourier_to_wire};
use super::multi_bit::{multi_bit_key_from_tfhe_rs, multi_bit_key_to_tfhe_rs};
use super::noise_squashing_keys::{
    compressed_noise_squashing_key_from_wire, compressed_noise_squashing_key_to_wire,
    modulus_switch, noise_squashing_key_from_wire, noise_squashing_key_to_wire,
};
use super::parameters::{
    known_parameters, seed_from_wire, seed_to_wire, tag_from_wire, tag_to_wire,
};
use super::wire::core::{
    CiphertextModulus, DecompositionBaseLog as WireBaseLog, DecompositionLevelCount as WireLevel,
    GlweSize, LweBskGroupingFactor, LweKeyswitchKey, LweSize as WireLweSize, PBSOrder,
    PolynomialSize as WirePolynomialSize, SeededGgswCiphertextList, SeededLweBootstrapKey,
    SeededLweKeyswitchKey, SeededLweMultiBitBootstrapKey,
};
use super::wire::server::{
    AtomicPatternServerKey, CompressedAtomicPatternServerKey, CompressedModulusSwitchConfiguration,
    CompressedServerKey as WireCompressed, CompressedStandardAtomicPatternServerKey,
    FourierLweBootstrapKey, FourierLweMultiBitBootstrapKey, HlIntegerCompressedServerKey,
    HlIntegerServerKey, IntegerCompressedServerKey, IntegerServerKey, ModulusSwitchConfiguration,
    ServerKey as WireServerKey, ShortintBootstrappingKey, ShortintCompressedBootstrappingKey,
    ShortintCompressedServerKey, ShortintServerKey, StandardAtomicPatternServerKey,
};
use super::wire::shortint::{CarryModulus, MaxDegree, MaxNoiseLevel, MessageModulus};
use super::{versionize_through_wire, TfheRsForm};
use crate::core_crypto::tfhe_rs_layout::TfheRsMultiBitExtra;
use crate::core_crypto::tfhe_rs_layout::{
    fourier_bootstrap_key_from_tfhe_rs_fourier, lwe_keyswitch_key_from_tfhe_rs_layout,
    lwe_keyswitch_key_to_tfhe_rs_layout, seeded_lwe_bootstrap_key_from_tfhe_rs_parts,
    seeded_lwe_keyswitch_key_from_tfhe_rs_parts, tfhe_rs_fourier_from_fourier_bootstrap_key,
};
use crate::core_crypto::{
    BootstrapKeyShape, DecompositionBaseLog, DecompositionLevelCount, GlweDimension, LweDimension,
    LweSize, ModulusSwitchType, PolynomialSize,
};
use crate::error::{Error, Result};
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::{CompressedServerKey, ConfigBuilder, ServerKey};
use crate::scheduler::SchedulerConfig;
use crate::shortint::{self, PbsKind, ShortintParameters};
use std::sync::Arc;

/// What a TFHE-rs server key says of its parameters.
#[derive(Clone, Copy, PartialEq)]
struct KeyShape {
    lwe_dimension: usize,
    glwe_dimension: usize,
    polynomial_size: usize,
    pbs_base_log: usize,
    pbs_level: usize,
    ks_base_log: usize,
    ks_level: usize,
    message_modulus: u64,
    carry_modulus: u64,
    max_noise_level: u64,
    /// The modulus switch: said by a classical key, not by a multi-bit one.
    modulus_switch: Option<ModulusSwitchType>,
    pbs_kind: PbsKind,
}

impl KeyShape {
    fn of(p: &ShortintParameters) -> Self {
        Self {
            lwe_dimension: p.lwe_dimension.0,
            glwe_dimension: p.glwe_dimension.0,
            polynomial_size: p.polynomial_size.0,
            pbs_base_log: p.pbs_base_log.0,
            pbs_level: p.pbs_level.0,
            ks_base_log: p.ks_base_log.0,
            ks_level: p.ks_level.0,
            message_modulus: p.message_modulus,
            carry_modulus: p.carry_modulus,
            max_noise_level: p.max_noise_level,
            modulus_switch: (p.pbs_kind == PbsKind::Classical).then_some(p.modulus_switch),
            pbs_kind: p.pbs_kind,
        }
    }

    /// The known parameter set of this shape; an insecure one only inside
    /// [`crate::serialization::with_insecure_parameters_allowed`].
    fn parameters(&self) -> Result<ShortintParameters> {
        let p = known_parameters()
            .into_iter()
            .find(|p| KeyShape::of(p) == *self)
            .ok_or_else(|| {
                Error::InvalidParameter(
                    "a TFHE-rs server key of a shape that matches no parameter set gpufhe \
                     knows (its keys do not hold their noise parameters): gpufhe reads the \
                     keys of its named sets, such as TFHE-rs's defaults"
                        .into(),
                )
            })?;
        if p.check_security().is_err()
            && !crate::serialization::codec::insecure_parameters_allowed()
        {
            p.check_security()?;
        }
        Ok(p)
    }

    /// gpufhe's bootstrap key's shape.
    fn bootstrap(&self) -> BootstrapKeyShape {
        BootstrapKeyShape {
            input_lwe_dimension: LweDimension(self.pbs_kind.ggsw_count(self.lwe_dimension)),
            glwe_dimension: GlweDimension(self.glwe_dimension),
            polynomial_size: PolynomialSize(self.polynomial_size),
            base_log: DecompositionBaseLog(self.pbs_base_log),
            level: DecompositionLevelCount(self.pbs_level),
        }
    }
}

/// `Err` unless the blocks live under the big key (keyswitch, then bootstrap).
fn check_order(order: PBSOrder) -> Result<()> {
    if order == PBSOrder::KeyswitchBootstrap {
        Ok(())
    } else {
        Err(Error::InvalidParameter(
            "a server key of PBS order bootstrap-then-keyswitch; gpufhe's blocks live under \
             the big key"
                .into(),
        ))
    }
}

/// TFHE-rs's largest degree of a block of an integer server key: the total
/// modulus less one carry's worth, room for a carry from another block.
fn max_degree(p: &ShortintParameters) -> u64 {
    p.total_modulus() - p.carry_modulus
}

/// `Err` unless the key's bookkeeping is that of its parameters.
fn check_bookkeeping(p: &ShortintParameters, degree: u64) -> Result<()> {
    crate::error::check_eq(
        "maximum degree of the server key",
        max_degree(p) as usize,
        degree as usize,
    )
}

/// `Err` unless a key of `bytes` can be made within the memory budget.
fn reserve(bytes: usize, what: &'static str) -> Result<crate::memory::MemoryReservation> {
    crate::memory::reserve_host_memory(bytes as u64, what)
}

/// TFHE-rs's `shortint` server key of gpufhe's CPU key `host`.
pub(super) fn shortint_server_key_to_wire(host: &shortint::ServerKey) -> Result<ShortintServerKey> {
    let p = *host.parameters();
    let bootstrapping_key = bootstrapping_key_to_wire(host)?;
    let ksk = host.keyswitch_key();
    Ok(ShortintServerKey {
        atomic_pattern: AtomicPatternServerKey::Standard(StandardAtomicPatternServerKey {
            key_switching_key: LweKeyswitchKey {
                data: lwe_keyswitch_key_to_tfhe_rs_layout(ksk),
                decomp_base_log: WireBaseLog(p.ks_base_log.0),
                decomp_level_count: WireLevel(p.ks_level.0),
                output_lwe_size: WireLweSize(ksk.output_lwe_size().0),
                ciphertext_modulus: CiphertextModulus::NATIVE_U64,
            },
            bootstrapping_key,
            pbs_order: PBSOrder::KeyswitchBootstrap,
        }),
        message_modulus: MessageModulus(p.message_modulus),
        carry_modulus: CarryModulus(p.carry_modulus),
        max_degree: MaxDegree(max_degree(&p)),
        max_noise_level: MaxNoiseLevel(p.max_noise_level),
        ciphertext_modulus: CiphertextModulus::NATIVE_U64,
    })
}

/// gpufhe's CPU server key of TFHE-rs's `shortint` server key, checked: its shape
/// must be that of a known parameter set, whose parameters it takes.
pub(super) fn shortint_server_key_from_wire(key: ShortintServerKey) -> Result<shortint::ServerKey> {
    key.ciphertext_modulus.check_native_u64("server key")?;
    let AtomicPatternServerKey::Standard(ap) = key.atomic_pattern else {
        return Err(Error::InvalidParameter(
            "a server key of the KeySwitch32 atomic pattern, which gpufhe does not support".into(),
        ));
    };
    check_order(ap.pbs_order)?;
    let ksk = ap.key_switching_key;
    ksk.ciphertext_modulus
        .check_native_u64("keyswitching key")?;
    let (bsk, shape) = WireBootstrapKey::of(ap.bootstrapping_key)?;
    let shape = KeyShape {
        ks_base_log: ksk.decomp_base_log.0,
        ks_level: ksk.decomp_level_count.0,
        message_modulus: key.message_modulus.0,
        carry_modulus: key.carry_modulus.0,
        max_noise_level: key.max_noise_level.0,
        ..shape
    };
    let p = shape.parameters()?;
    check_bookkeeping(&p, key.max_degree.0)?;
    // TFHE-rs's GGSW ciphertexts (all 2^g of a multi-bit group), as read and as
    // converted at once.
    let ggsws = match p.pbs_kind.grouping_factor() {
        Some(g) => (p.lwe_dimension.0 / g) << g,
        None => p.lwe_dimension.0,
    };
    let _memory = reserve(
        p.bootstrap_key_shape().ggsw_size().saturating_mul(ggsws) * 16,
        "reading a TFHE-rs server key",
    )?;
    let keyswitch_key = lwe_keyswitch_key_from_tfhe_rs_layout(
        ksk.data,
        DecompositionBaseLog(ksk.decomp_base_log.0),
        DecompositionLevelCount(ksk.decomp_level_count.0),
        LweSize(ksk.output_lwe_size.0),
    )?;
    let (bootstrap_key, kept) = bsk.into_key(&shape)?;
    let mut host = shortint::ServerKey::from_keys(keyswitch_key, bootstrap_key, p)?;
    host.tfhe_rs_extra = kept.map(Arc::new);
    Ok(host)
}

/// A high-level server key computing on the CPU with `host`, tagged `tag`.
pub(super) fn server_key_of(tag: KeyTag, host: shortint::ServerKey) -> Result<ServerKey> {
    server_key_with_keys(tag, host, None, None)
}

/// [`server_key_of`] with these compression and noise-squashing keys (checked
/// against the blocks).
fn server_key_with_keys(
    tag: KeyTag,
    host: shortint::ServerKey,
    compression: Option<shortint::CompressionKeys>,
    noise_squashing: Option<(
        shortint::NoiseSquashingKey,
        Option<shortint::NoiseSquashingCompressionKey>,
    )>,
) -> Result<ServerKey> {
    let mut builder =
        ConfigBuilder::default().with_insecure_custom_parameters(*host.parameters())?;
    if let Some(c) = &compression {
        builder = builder.enable_compression(c.parameters);
    }
    if let Some((ns, c)) = &noise_squashing {
        builder = builder.enable_noise_squashing(*ns.parameters());
        if let Some(c) = c {
            builder = builder.enable_noise_squashing_compression(*c.parameters());
        }
    }
    let key = ServerKey::from_parts(
        tag,
        builder.build(),
        host,
        compression.map(Arc::new),
        &SchedulerConfig::from_env()?,
    );
    if let Some((ns, c)) = noise_squashing {
        let _ = key.noise_squashing_key().set(Arc::new(ns));
        if let Some(c) = c {
            let _ = key.noise_squashing_compression_key().set(Arc::new(c));
        }
    }
    Ok(key)
}

/// The error of a TFHE-rs key with a noise-squashing compression key but no
/// noise-squashing key.
fn compression_without_squashing() -> Error {
    Error::InvalidParameter(
        "a server key with a noise-squashing compression key but no noise-squashing key".into(),
    )
}

/// The noise-squashing key of a key whose configuration enables noise squashing;
/// `Err` if it was lost (gpufhe's own format does not hold it).
fn kept_noise_squashing_key<T>(enabled: bool, key: Option<T>, what: &str) -> Result<Option<T>> {
    match (enabled, key) {
        (true, None) => Err(Error::Serialization(format!(
            "this {what} enables noise squashing but does not hold its noise-squashing key \
             (gpufhe's own format leaves it out): write the key it was made from"
        ))),
        (_, key) => Ok(key),
    }
}

impl TfheRsForm for ServerKey {
    type Wire = WireServerKey;

    fn to_wire(&self) -> Result<WireServerKey> {
        let noise_squashing_key = kept_noise_squashing_key(
            self.has_noise_squashing_key(),
            self.noise_squashing_key().get(),
            "server key",
        )?
        .map(|k| noise_squashing_key_to_wire(k))
        .transpose()?;
        let (compression_key, decompression_key) =
            match self.compression_keys().map(compression_keys_to_wire) {
                Some(keys) => {
                    let (c, d) = keys?;
                    (Some(c), Some(d))
                }
                None => (None, None),
            };
        Ok(WireServerKey {
            key: HlIntegerServerKey {
                key: IntegerServerKey {
                    key: shortint_server_key_to_wire(self.scheduler().host_key())?,
                },
                cpk_key_switching_key_material: self
                    .casting_key()
                    .map(super::dedicated::casting_key_to_wire),
                compression_key,
                decompression_key,
                noise_squashing_key,
                noise_squashing_compression_key: kept_noise_squashing_key(
                    self.has_noise_squashing_compression_key(),
                    self.noise_squashing_compression_key().get(),
                    "server key",
                )?
                .map(|k| super::squashed_lists::key_to_wire(k)),
                cpk_re_randomization_key: self
                    .re_randomization_key()
                    .map(|k| super::re_randomization::key_to_wire(k, self.config().parameters()))
                    .transpose()?,
                oprf_key: self.tfhe_rs_oprf().get().map(|k| (**k).clone()),
                transciphering_key: None,
            },
            tag: tag_to_wire(self.tag()),
        })
    }

    fn from_wire(wire: WireServerKey) -> Result<Self> {
        let hl = wire.key;
        let host = shortint_server_key_from_wire(hl.key.key)?;
        let casting = hl
            .cpk_key_switching_key_material
            .map(|m| super::dedicated::casting_key_from_wire(m, host.parameters()).map(Arc::new))
            .transpose()?;
        let re_randomization = hl
            .cpk_re_randomization_key
            .map(|w| super::re_randomization::key_from_wire(w, host.parameters()).map(Arc::new))
            .transpose()?;
        let compression = compression_keys_from_wire(
            hl.compression_key,
            hl.decompression_key,
            host.parameters(),
        )?;
        let noise_squashing = hl
            .noise_squashing_key
            .map(|k| noise_squashing_key_from_wire(k, host.parameters()))
            .transpose()?;
        let squashing_compression = match (hl.noise_squashing_compression_key, &noise_squashing) {
            (None, _) => None,
            (Some(c), Some(ns)) => Some(super::squashed_lists::key_from_wire(c, ns.parameters())?),
            (Some(_), None) => return Err(compression_without_squashing()),
        };
        let key = server_key_with_keys(
            tag_from_wire(&wire.tag),
            host,
            compression,
            noise_squashing.map(|ns| (ns, squashing_compression)),
        )?
        .with_casting_key(casting)
        .with_re_randomization_key(re_randomization);
        if let Some(oprf) = hl.oprf_key {
            let _ = key.tfhe_rs_oprf().set(Arc::new(oprf));
        }
        Ok(key)
    }
}

/// TFHE-rs's Fourier bootstrap key as read, classical or multi-bit.
enum WireBootstrapKey {
    Classic(Vec<(f64, f64)>),
    MultiBit {
        values: Vec<(f64, f64)>,
        grouping_factor: usize,
        deterministic_execution: bool,
    },
}

impl WireBootstrapKey {
    /// The key and what it says of its parameters (its bootstrap shape, its kind
    /// and modulus switch; the rest left for the caller).
    fn of(key: ShortintBootstrappingKey) -> Result<(Self, KeyShape)> {
        let (fourier, input, glwe_size, base_log, level, switch, kind, this) = match key {
            ShortintBootstrappingKey::Classic {
                bsk,
                modulus_switch_noise_reduction_key: switch,
            } => (
                bsk.fourier,
                bsk.input_lwe_dimension,
                bsk.glwe_size,
                bsk.decomposition_base_log,
                bsk.decomposition_level_count,
                Some(modulus_switch(
                    switch == ModulusSwitchConfiguration::Standard,
                    switch == ModulusSwitchConfiguration::CenteredMeanNoiseReduction,
                )?),
                PbsKind::Classical,
                None,
            ),
            ShortintBootstrappingKey::MultiBit {
                fourier_bsk: bsk,
                deterministic_execution,
            } => (
                bsk.fourier,
                bsk.input_lwe_dimension,
                bsk.glwe_size,
                bsk.decomposition_base_log,
                bsk.decomposition_level_count,
                None,
                PbsKind::MultiBit {
                    grouping_factor: bsk.grouping_factor.0,
                },
                Some((bsk.grouping_factor.0, deterministic_execution)),
            ),
        };
        let shape = KeyShape {
            lwe_dimension: input.0,
            glwe_dimension: glwe_size.0.saturating_sub(1),
            polynomial_size: fourier.0.polynomial_size,
            pbs_base_log: base_log.0,
            pbs_level: level.0,
            ks_base_log: 0,
            ks_level: 0,
            message_modulus: 0,
            carry_modulus: 0,
            max_noise_level: 0,
            modulus_switch: switch,
            pbs_kind: kind,
        };
        let values = fourier.0.values;
        Ok((
            match this {
                None => Self::Classic(values),
                Some((grouping_factor, deterministic_execution)) => Self::MultiBit {
                    values,
                    grouping_factor,
                    deterministic_execution,
                },
            },
            shape,
        ))
    }

    /// gpufhe's key of `shape` (checked against known parameters), and what a
    /// multi-bit key keeps of TFHE-rs's to be written back.
    fn into_key(
        self,
        shape: &KeyShape,
    ) -> Result<(
        crate::core_crypto::FourierLweBootstrapKey,
        Option<TfheRsMultiBitExtra>,
    )> {
        let polys = fourier_polynomials;
        match self {
            Self::Classic(values) => Ok((
                fourier_bootstrap_key_from_tfhe_rs_fourier(&polys(values), shape.bootstrap())?,
                None,
            )),
            Self::MultiBit {
                values,
                grouping_factor,
                deterministic_execution,
            } => {
                let (key, empty_assignments) =
                    multi_bit_key_from_tfhe_rs(&polys(values), shape.bootstrap(), grouping_factor)?;
                Ok((
                    key,
                    Some(TfheRsMultiBitExtra {
                        empty_assignments,
                        deterministic_execution,
                    }),
                ))
            }
        }
    }
}

/// TFHE-rs's bootstrapping key of `host`; a multi-bit one with the
/// empty-assignment GGSW ciphertexts the key keeps (see [`super::multi_bit`]).
fn bootstrapping_key_to_wire(host: &shortint::ServerKey) -> Result<ShortintBootstrappingKey> {
    let p = host.parameters();
    let bsk = host.bootstrap_key();
    match p.pbs_kind {
        PbsKind::Classical => Ok(ShortintBootstrappingKey::Classic {
            bsk: fourier_to_wire(
                &stated_shape(p),
                tfhe_rs_fourier_from_fourier_bootstrap_key(bsk),
            ),
            modulus_switch_noise_reduction_key: match p.modulus_switch {
                ModulusSwitchType::Standard => ModulusSwitchConfiguration::Standard,
                ModulusSwitchType::CenteredMeanNoiseReduction => {
                    ModulusSwitchConfiguration::CenteredMeanNoiseReduction
                }
            },
        }),
        PbsKind::MultiBit { grouping_factor } => {
            let kept = host.tfhe_rs_extra.as_ref().ok_or_else(|| {
                Error::InvalidParameter(
                    "a multi-bit server key read from gpufhe's own format has no TFHE-rs \
                     form: that format leaves out TFHE-rs's empty-assignment GGSW \
                     ciphertexts (keys decompressed from a CompressedServerKey, or read from \
                     TFHE-rs's data, keep them); decompress its CompressedServerKey again, or \
                     write it with gpufhe::serialization"
                        .into(),
                )
            })?;
            let values = multi_bit_key_to_tfhe_rs(bsk, grouping_factor, &kept.empty_assignments)?;
            let FourierLweBootstrapKey {
                fourier,
                input_lwe_dimension,
                glwe_size,
                decomposition_base_log,
                decomposition_level_count,
            } = fourier_to_wire(&stated_shape(p), values);
            Ok(ShortintBootstrappingKey::MultiBit {
                fourier_bsk: FourierLweMultiBitBootstrapKey {
                    fourier,
                    input_lwe_dimension,
                    glwe_size,
                    decomposition_base_log,
                    decomposition_level_count,
                    grouping_factor: LweBskGroupingFactor(grouping_factor),
                },
                deterministic_execution: kept.deterministic_execution,
            })
        }
    }
}

/// The shape TFHE-rs's bootstrap key of `p` states (the small key's dimension as
/// input, whatever the kind of blind rotation).
fn stated_shape(p: &ShortintParameters) -> BootstrapKeyShape {
    BootstrapKeyShape {
        input_lwe_dimension: p.lwe_dimension,
        ..p.bootstrap_key_shape()
    }
}

impl TfheRsForm for CompressedServerKey {
    type Wire = WireCompressed;

    fn to_wire(&self) -> Result<WireCompressed> {
        let noise_squashing_key = kept_noise_squashing_key(
            self.has_noise_squashing_key(),
            self.noise_squashing_key().get(),
            "compressed server key",
        )?
        .map(|k| compressed_noise_squashing_key_to_wire(k))
        .transpose()?;
        let (compression_key, decompression_key) = match self
            .compression_keys()
            .map(compressed_compression_keys_to_wire)
        {
            Some(keys) => {
                let (c, d) = keys?;
                (Some(c), Some(d))
            }
            None => (None, None),
        };
        let key = self.shortint_key();
        let p = *key.parameters();
        let (ksk, bsk) = (&key.keyswitch_key, &key.bootstrap_key);
        let ggsw_list = SeededGgswCiphertextList {
            data: bsk.bodies().to_vec(),
            glwe_size: GlweSize(p.glwe_dimension.0 + 1),
            polynomial_size: WirePolynomialSize(p.polynomial_size.0),
            decomp_base_log: WireBaseLog(p.pbs_base_log.0),
            decomp_level_count: WireLevel(p.pbs_level.0),
            compression_seed: seed_to_wire(bsk.seed()),
            ciphertext_modulus: CiphertextModulus::NATIVE_U64,
        };
        let bootstrapping_key = match p.pbs_kind {
            PbsKind::Classical => ShortintCompressedBootstrappingKey::Classic {
                bsk: SeededLweBootstrapKey { ggsw_list },
                modulus_switch_noise_reduction_key: match p.modulus_switch {
                    ModulusSwitchType::Standard => CompressedModulusSwitchConfiguration::Standard,
                    ModulusSwitchType::CenteredMeanNoiseReduction => {
                        CompressedModulusSwitchConfiguration::CenteredMeanNoiseReduction
                    }
                },
            },
            // gpufhe's seeded multi-bit key is TFHE-rs's (all 2^g GGSW ciphertexts).
            PbsKind::MultiBit { grouping_factor } => ShortintCompressedBootstrappingKey::MultiBit {
                seeded_bsk: SeededLweMultiBitBootstrapKey {
                    ggsw_list,
                    grouping_factor: LweBskGroupingFactor(grouping_factor),
                },
                deterministic_execution: false,
            },
        };
        Ok(WireCompressed {
            integer_key: HlIntegerCompressedServerKey {
                key: IntegerCompressedServerKey {
                    key: ShortintCompressedServerKey {
                        compressed_ap_server_key: CompressedAtomicPatternServerKey::Standard(
                            CompressedStandardAtomicPatternServerKey {
                                key_switching_key: SeededLweKeyswitchKey {
                                    data: ksk.bodies().to_vec(),
                                    decomp_base_log: WireBaseLog(p.ks_base_log.0),
                                    decomp_level_count: WireLevel(p.ks_level.0),
                                    output_lwe_size: WireLweSize(p.lwe_dimension.0 + 1),
                                    compression_seed: seed_to_wire(ksk.seed()),
                                    ciphertext_modulus: CiphertextModulus::NATIVE_U64,
                                },
                                bootstrapping_key,
                                pbs_order: PBSOrder::KeyswitchBootstrap,
                            },
                        ),
                        message_modulus: MessageModulus(p.message_modulus),
                        carry_modulus: CarryModulus(p.carry_modulus),
                        max_degree: MaxDegree(max_degree(&p)),
                        max_noise_level: MaxNoiseLevel(p.max_noise_level),
                    },
                },
                cpk_key_switching_key_material: self
                    .casting_key()
                    .map(|k| super::dedicated::compressed_casting_key_to_wire(k)),
                compression_key,
                decompression_key,
                noise_squashing_key,
                noise_squashing_compression_key: kept_noise_squashing_key(
                    self.has_noise_squashing_compression_key(),
                    self.noise_squashing_compression_key().get(),
                    "compressed server key",
                )?
                .map(|k| super::squashed_lists::compressed_key_to_wire(k)),
                cpk_re_randomization_key: self
                    .re_randomization_key()
                    .map(|k| super::re_randomization::compressed_key_to_wire(k, &p))
                    .transpose()?,
                oprf_key: self.tfhe_rs_oprf().get().map(|k| (**k).clone()),
                transciphering_key: None,
            },
            tag: tag_to_wire(self.tag()),
        })
    }

    fn from_wire(wire: WireCompressed) -> Result<Self> {
        let hl = wire.integer_key;
        let key = hl.key.key;
        let CompressedAtomicPatternServerKey::Standard(ap) = key.compressed_ap_server_key else {
            return Err(Error::InvalidParameter(
                "a server key of the KeySwitch32 atomic pattern, which gpufhe does not support"
                    .into(),
            ));
        };
        check_order(ap.pbs_order)?;
        let (ggsw, modulus_switch, pbs_kind) = match ap.bootstrapping_key {
            ShortintCompressedBootstrappingKey::Classic {
                bsk,
                modulus_switch_noise_reduction_key: switch,
            } => (
                bsk.ggsw_list,
                Some(modulus_switch(
                    switch == CompressedModulusSwitchConfiguration::Standard,
                    switch == CompressedModulusSwitchConfiguration::CenteredMeanNoiseReduction,
                )?),
                PbsKind::Classical,
            ),
            ShortintCompressedBootstrappingKey::MultiBit {
                seeded_bsk,
                deterministic_execution,
            } => {
                if deterministic_execution {
                    return Err(Error::InvalidParameter(
                        "a compressed multi-bit server key asking for deterministic execution \
                         (older TFHE-rs GPU sets), which gpufhe would not write back"
                            .into(),
                    ));
                }
                let grouping_factor = seeded_bsk.grouping_factor.0;
                (
                    seeded_bsk.ggsw_list,
                    None,
                    PbsKind::MultiBit { grouping_factor },
                )
            }
        };
        let ksk = ap.key_switching_key;
        ksk.ciphertext_modulus
            .check_native_u64("keyswitching key")?;
        ggsw.ciphertext_modulus.check_native_u64("bootstrap key")?;
        let shape = KeyShape {
            lwe_dimension: ksk.output_lwe_size.0.saturating_sub(1),
            glwe_dimension: ggsw.glwe_size.0.saturating_sub(1),
            polynomial_size: ggsw.polynomial_size.0,
            pbs_base_log: ggsw.decomp_base_log.0,
            pbs_level: ggsw.decomp_level_count.0,
            ks_base_log: ksk.decomp_base_log.0,
            ks_level: ksk.decomp_level_count.0,
            message_modulus: key.message_modulus.0,
            carry_modulus: key.carry_modulus.0,
            max_noise_level: key.max_noise_level.0,
            modulus_switch,
            pbs_kind,
        };
        let p = shape.parameters()?;
        check_bookkeeping(&p, key.max_degree.0)?;
        let keyswitch_key = seeded_lwe_keyswitch_key_from_tfhe_rs_parts(
            ksk.data,
            DecompositionBaseLog(ksk.decomp_base_log.0),
            DecompositionLevelCount(ksk.decomp_level_count.0),
            LweSize(ksk.output_lwe_size.0),
            seed_from_wire(&ksk.compression_seed)?,
        )?;
        let bootstrap_key = seeded_lwe_bootstrap_key_from_tfhe_rs_parts(
            ggsw.data,
            p.seeded_bootstrap_key_shape(),
            seed_from_wire(&ggsw.compression_seed)?,
        )?;
        let seeded = shortint::CompressedServerKey::from_keys(keyswitch_key, bootstrap_key, p)?;
        let casting = hl
            .cpk_key_switching_key_material
            .map(|m| super::dedicated::compressed_casting_key_from_wire(m, &p).map(Arc::new))
            .transpose()?;
        let re_randomization = hl
            .cpk_re_randomization_key
            .map(|w| super::re_randomization::compressed_key_from_wire(w, &p).map(Arc::new))
            .transpose()?;
        let compression =
            compressed_compression_keys_from_wire(hl.compression_key, hl.decompression_key, &p)?;
        let noise_squashing = hl
            .noise_squashing_key
            .map(|k| compressed_noise_squashing_key_from_wire(k, &p))
            .transpose()?;
        let squashing_compression = match (hl.noise_squashing_compression_key, &noise_squashing) {
            (None, _) => None,
            (Some(c), Some(ns)) => Some(super::squashed_lists::compressed_key_from_wire(
                c,
                ns.parameters(),
            )?),
            (Some(_), None) => return Err(compression_without_squashing()),
        };
        let mut config = ConfigBuilder::default().with_insecure_custom_parameters(p)?;
        if let Some(c) = &compression {
            config = config.enable_compression(c.parameters);
        }
        if let Some(ns) = &noise_squashing {
            config = config.enable_noise_squashing(*ns.parameters());
        }
        if let Some(c) = &squashing_compression {
            config = config.enable_noise_squashing_compression(*c.parameters());
        }
        let key = CompressedServerKey::from_parts_with_compression(
            tag_from_wire(&wire.tag),
            config.build(),
            seeded,
            compression,
        )?
        .with_casting_key(casting)
        .with_re_randomization_key(re_randomization);
        if let Some(oprf) = hl.oprf_key {
            let _ = key.tfhe_rs_oprf().set(Arc::new(oprf));
        }
        if let Some(ns) = noise_squashing {
            let _ = key.noise_squashing_key().set(Arc::new(ns));
        }
        if let Some(c) = squashing_compression {
            let _ = key.noise_squashing_compression_key().set(Arc::new(c));
        }
        Ok(key)
    }
}

versionize_through_wire!("high_level_api::ServerKey", WireServerKey, [] ServerKey);
versionize_through_wire!("high_level_api::CompressedServerKey", WireCompressed, [] CompressedServerKey);
