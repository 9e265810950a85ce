//! TFHE-rs 1.8's re-randomization key material, as serialized: the server keys'
//! `ReRandomizationKey` (a compact public key of the computation key, or the
//! keyswitch of the legacy mode) with its compressed form (the parameters are in
//! `dedicated`).

use super::dedicated::{IntegerCompressedKeySwitchingKeyMaterial, IntegerKeySwitchingKeyMaterial};
use super::high_level::{IntegerCompactPublicKey, IntegerCompressedCompactPublicKey};

wire!(ReRandomizationKeySwitchingKeyVersions [] V0 ReRandomizationKeySwitchingKey:
/// The keyswitch of the legacy mode.
pub enum ReRandomizationKeySwitchingKey {
    /// The casting key of compact lists.
    UseCPKEncryptionKSK,
    /// A key of its own.
    DedicatedKSK(IntegerKeySwitchingKeyMaterial),
});

wire!(CompressedReRandomizationKeySwitchingKeyVersions [] V0
CompressedReRandomizationKeySwitchingKey:
/// The keyswitch of the legacy mode, seeded.
pub enum CompressedReRandomizationKeySwitchingKey {
    /// The casting key of compact lists.
    UseCPKEncryptionKSK,
    /// A key of its own.
    DedicatedKSK(IntegerCompressedKeySwitchingKeyMaterial),
});

wire!(ReRandomizationKeyVersions [] V0 ReRandomizationKey:
/// A server key's re-randomization material.
pub enum ReRandomizationKey {
    /// The legacy mode's keyswitch.
    LegacyDedicatedCPK { ksk: ReRandomizationKeySwitchingKey },
    /// A compact public key of the computation key.
    DerivedCPKWithoutKeySwitch { cpk: IntegerCompactPublicKey },
});

wire!(CompressedReRandomizationKeyVersions [] V0 CompressedReRandomizationKey:
/// A compressed server key's re-randomization material.
pub enum CompressedReRandomizationKey {
    /// The legacy mode's keyswitch.
    LegacyDedicatedCPK {
        ksk: CompressedReRandomizationKeySwitchingKey,
    },
    /// A compact public key of the computation key, seeded.
    DerivedCPKWithoutKeySwitch {
        cpk: IntegerCompressedCompactPublicKey,
    },
});
