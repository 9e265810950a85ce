//! The keyswitching key between two key sets, between gpufhe and TFHE-rs's data.
//!
//! TFHE-rs's key holds the LWE keyswitching key (in TFHE-rs's layout:
//! `core_crypto::algorithms::tfhe_rs_layout`), the shift between the two
//! encodings (0: gpufhe switches between key sets of the same message and carry
//! moduli), the destination key (the big one) and pattern (the standard one), the
//! destination `shortint` server key and, for a key made from both key pairs, the
//! source one (`server_key.rs` converts both).

use super::parameters::{tag_from_wire, tag_to_wire};
use super::server_key::{
    server_key_of, shortint_server_key_from_wire, shortint_server_key_to_wire,
};
use super::wire::core::{
    CiphertextModulus, DecompositionBaseLog as WireBaseLog, DecompositionLevelCount as WireLevel,
    EncryptionKeyChoice, LweKeyswitchKey, LweSize as WireLweSize,
};
use super::wire::key_switching::{
    IntegerKeySwitchingKey, KeySwitchingKey as WireKey, KeySwitchingKeyDestinationAtomicPattern,
    ShortintKeySwitchingKey, ShortintKeySwitchingKeyMaterial,
};
use super::{versionize_through_wire, TfheRsForm};
use crate::core_crypto::tfhe_rs_layout::{
    lwe_keyswitch_key_from_tfhe_rs_layout, lwe_keyswitch_key_to_tfhe_rs_layout,
};
use crate::core_crypto::{DecompositionBaseLog, DecompositionLevelCount, LweSize};
use crate::error::{Error, Result};
use crate::high_level::KeySwitchingKey;
use crate::shortint;

impl TfheRsForm for KeySwitchingKey {
    type Wire = WireKey;

    fn to_wire(&self) -> Result<WireKey> {
        let ksk = self.shortint_key().lwe_keyswitch_key();
        let shape = ksk.shape();
        let source = self
            .source()
            .map(|k| shortint_server_key_to_wire(k.scheduler().host_key()))
            .transpose()?;
        Ok(WireKey {
            key: IntegerKeySwitchingKey {
                key: ShortintKeySwitchingKey {
                    key_switching_key_material: ShortintKeySwitchingKeyMaterial {
                        key_switching_key: LweKeyswitchKey {
                            data: lwe_keyswitch_key_to_tfhe_rs_layout(ksk),
                            decomp_base_log: WireBaseLog(shape.base_log.0),
                            decomp_level_count: WireLevel(shape.level.0),
                            output_lwe_size: WireLweSize(ksk.output_lwe_size().0),
                            ciphertext_modulus: CiphertextModulus::NATIVE_U64,
                        },
                        cast_rshift: 0,
                        destination_key: EncryptionKeyChoice::Big,
                        destination_atomic_pattern:
                            KeySwitchingKeyDestinationAtomicPattern::Standard,
                    },
                    dest_server_key: shortint_server_key_to_wire(
                        self.destination().scheduler().host_key(),
                    )?,
                    src_server_key: source,
                },
            },
            tag_in: tag_to_wire(self.tag_in()),
            tag_out: tag_to_wire(self.tag_out()),
        })
    }

    fn from_wire(wire: WireKey) -> Result<Self> {
        let key = wire.key.key;
        let material = key.key_switching_key_material;
        if material.cast_rshift != 0 {
            return Err(Error::InvalidParameter(format!(
                "a keyswitching key between key sets of other message and carry moduli (shift \
                 {}), which gpufhe does not support",
                material.cast_rshift
            )));
        }
        if material.destination_key != EncryptionKeyChoice::Big
            || material.destination_atomic_pattern
                != KeySwitchingKeyDestinationAtomicPattern::Standard
        {
            return Err(Error::InvalidParameter(
                "a keyswitching key to the small key or to the KeySwitch32 pattern; gpufhe's \
                 blocks live under the big key of the standard pattern"
                    .into(),
            ));
        }
        let (tag_in, tag_out) = (tag_from_wire(&wire.tag_in), tag_from_wire(&wire.tag_out));
        let destination =
            server_key_of(tag_out, shortint_server_key_from_wire(key.dest_server_key)?)?;
        let source = key
            .src_server_key
            .map(|k| server_key_of(tag_in, shortint_server_key_from_wire(k)?))
            .transpose()?;
        let ksk = material.key_switching_key;
        ksk.ciphertext_modulus
            .check_native_u64("keyswitching key")?;
        let ksk = lwe_keyswitch_key_from_tfhe_rs_layout(
            ksk.data,
            DecompositionBaseLog(ksk.decomp_base_log.0),
            DecompositionLevelCount(ksk.decomp_level_count.0),
            LweSize(ksk.output_lwe_size.0),
        )?;
        let parameters = *destination.config().parameters();
        let key = shortint::KeySwitchingKey::from_key(ksk, parameters)?;
        KeySwitchingKey::from_parts(key, (tag_in, tag_out), destination, source)
    }
}

versionize_through_wire!("high_level_api::KeySwitchingKey", WireKey, [] KeySwitchingKey);
