//! TFHE-rs's keyswitching key between two key sets, as serialized: the high level's
//! key (the integer key and both tags), over `integer` and `shortint`'s keys (the
//! keyswitching key material, the destination server key, an optional source
//! server key).

pub(crate) use super::dedicated::{
    KeySwitchingKeyDestinationAtomicPattern, ShortintKeySwitchingKeyMaterial,
};
use super::high_level::Tag;
use super::server::ShortintServerKey;

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
