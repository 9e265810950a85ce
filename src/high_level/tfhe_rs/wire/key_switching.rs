//! TFHE-rs's keyswitching key between two key sets, as serialized: the high level's
//! key (the integer key and both tags), over `integer` and `shortint`'s keys (the
//! keyswitching key material, the destination server key, an optional source
//! server key).

use super::core::{EncryptionKeyChoice, LweKeyswitchKey};
use super::high_level::Tag;
use super::server::ShortintServerKey;

wire!(KeySwitchingKeyDestinationAtomicPatternVersions [] V0
KeySwitchingKeyDestinationAtomicPattern:
/// The atomic pattern of the destination server key.
#[derive(Copy)]
pub enum KeySwitchingKeyDestinationAtomicPattern {
    /// The standard pattern.
    Standard,
    /// TFHE-rs's 32-bit keyswitch pattern.
    KeySwitch32,
});

wire!(ShortintKeySwitchingKeyMaterialVersions [V0] V1 ShortintKeySwitchingKeyMaterial:
/// The keyswitching key and how switched blocks are used.
pub struct ShortintKeySwitchingKeyMaterial {
    pub(crate) key_switching_key: LweKeyswitchKey,
    pub(crate) cast_rshift: i8,
    pub(crate) destination_key: EncryptionKeyChoice,
    pub(crate) destination_atomic_pattern: KeySwitchingKeyDestinationAtomicPattern,
});

wire!(ShortintKeySwitchingKeyVersions [] V0 ShortintKeySwitchingKey:
/// `shortint`'s keyswitching key between two key sets.
pub struct ShortintKeySwitchingKey {
    pub(crate) key_switching_key_material: ShortintKeySwitchingKeyMaterial,
    pub(crate) dest_server_key: ShortintServerKey,
    pub(crate) src_server_key: Option<ShortintServerKey>,
});

wire!(IntegerKeySwitchingKeyVersions [] V0 IntegerKeySwitchingKey:
/// `integer`'s keyswitching key between two key sets.
pub struct IntegerKeySwitchingKey {
    pub(crate) key: ShortintKeySwitchingKey,
});

wire!(KeySwitchingKeyVersions [V0] V1 KeySwitchingKey:
/// The high level's keyswitching key between two key sets.
pub struct KeySwitchingKey {
    pub(crate) key: IntegerKeySwitchingKey,
    pub(crate) tag_in: Tag,
    pub(crate) tag_out: Tag,
});
