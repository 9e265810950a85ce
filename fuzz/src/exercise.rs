//! What a target does with a value it could read: a cheap first use, with the
//! fixture keys. A value that was accepted must not panic on first use; one that
//! conforms to the fixture client key must also compute (an `Err` there is an
//! accepted value that fails later, a finding too). Decryption may fail cleanly:
//! ciphertext coefficients are not authenticated, so a changed one may decrypt to
//! a value outside its type.

use gpufhe::prelude::*;
use gpufhe::serialization::{safe_deserialize, Conformant, SafeSerialization};
use gpufhe::{
    set_server_key, ClientKey, CompressedServerKey, Config, FheBool, FheUint, FheUint8, ServerKey,
};

use crate::keys::{cpu_scheduler, Keys};
use crate::{forge_tag, LIMIT};

/// A type the targets read: deserialized, checked for conformance, then used.
pub trait Exercise: SafeSerialization + Conformant {
    /// Uses the value once; `conformant` says whether it conforms to `keys.client`.
    /// Panics on a finding.
    fn exercise(&self, keys: &Keys, conformant: bool);
}

/// `Ok` is required of a conformant value; any result is fine otherwise.
fn require<T>(conformant: bool, what: &str, result: gpufhe::Result<T>) -> Option<T> {
    match result {
        Ok(v) => Some(v),
        Err(e) if conformant => panic!("a conformant value was accepted, then {what}: {e}"),
        Err(_) => None,
    }
}

impl Exercise for Config {
    fn exercise(&self, _keys: &Keys, conformant: bool) {
        if !conformant {
            // (The fixture key is of the conformant configuration.)
            generate_and_use(*self);
        }
    }
}

/// Generates a client key for `config` (an `Err` is fine: the configuration may
/// ask for more than the machine has), then encrypts and decrypts with it.
pub fn generate_and_use(config: Config) {
    if let Ok(client) = ClientKey::try_generate(config) {
        if let Ok(x) = FheBool::try_encrypt(true, &client) {
            let _ = x.try_decrypt(&client);
        }
    }
}

impl Exercise for ClientKey {
    fn exercise(&self, _keys: &Keys, conformant: bool) {
        // A key decrypts what it encrypts, whatever its secret coefficients.
        let x = require(
            conformant,
            "encrypting",
            FheUint8::try_encrypt(0xa5u8, self),
        );
        if let Some(x) = x {
            let back: Option<u8> = require(conformant, "decrypting", x.try_decrypt(self));
            if conformant {
                assert_eq!(back, Some(0xa5), "a conformant client key decrypts wrongly");
            }
        }
    }
}

/// Computes with `key` on the fixture's ciphertext carrying `key`'s tag (a forged
/// tag: tags are public).
fn exercise_server_key(key: &ServerKey, keys: &Keys, conformant: bool) {
    let forged = forge_tag(&keys.uint8_bytes, key.tag().value());
    let x: FheUint8 = safe_deserialize(forged.as_slice(), LIMIT)
        .expect("a valid ciphertext with another tag reads");
    set_server_key(key.clone());
    let _ = require(conformant, "computing", x.try_bitand(&x));
    set_server_key(keys.server.clone());
}

impl Exercise for CompressedServerKey {
    fn exercise(&self, keys: &Keys, conformant: bool) {
        let key = require(
            conformant,
            "decompressing",
            self.decompress_with(&cpu_scheduler()),
        );
        if let Some(key) = key {
            exercise_server_key(&key, keys, conformant);
        }
    }
}

impl Exercise for ServerKey {
    fn exercise(&self, keys: &Keys, conformant: bool) {
        exercise_server_key(self, keys, conformant);
    }
}

impl Exercise for gpufhe::KeySwitchingKey {
    fn exercise(&self, keys: &Keys, _conformant: bool) {
        // The fixture's value carrying the source tag (tags are public): switched,
        // or refused for its parameters, never a panic; a trivial value passes.
        use gpufhe::FheKeyswitch;
        let forged = forge_tag(&keys.uint8_bytes, self.tag_in().value());
        let x: FheUint8 = safe_deserialize(forged.as_slice(), LIMIT)
            .expect("a valid ciphertext with another tag reads");
        let _ = self.try_keyswitch(&x);
        let trivial = FheUint8::encrypt_trivial(0x5au8);
        let moved = self
            .try_keyswitch(&trivial)
            .expect("a trivial value is switched");
        assert_eq!(moved.try_decrypt_trivial(), Ok(0x5au8));
    }
}

impl Exercise for FheBool {
    fn exercise(&self, keys: &Keys, conformant: bool) {
        set_server_key(keys.server.clone());
        let _ = require(conformant, "computing", self.try_and(self));
        let _ = self.try_decrypt(&keys.client);
    }
}

/// Squashed values: decrypted (the fixture key has no noise-squashing key, so none
/// conforms to it; decryption is an `Err`, never a panic).
macro_rules! squashed {
    ($($ty:ty: $clear:ty),*) => {$(
        impl Exercise for $ty {
            fn exercise(&self, keys: &Keys, _conformant: bool) {
                let _ = FheTryDecrypt::<$clear>::try_decrypt(self, &keys.client);
            }
        }
    )*};
}

squashed!(
    gpufhe::SquashedNoiseFheUint: u64,
    gpufhe::SquashedNoiseFheInt: i64,
    gpufhe::SquashedNoiseFheBool: bool
);

/// Compressed squashed lists: every value taken out as the kind it says, then
/// decrypted (an `Err` is fine, a panic is a finding).
impl Exercise for gpufhe::CompressedSquashedNoiseCiphertextList {
    fn exercise(&self, keys: &Keys, _conformant: bool) {
        decrypt_squashed_list(self, &keys.client);
    }
}

/// Every value of `list` taken out as the kind it says and decrypted by `client`.
pub(crate) fn decrypt_squashed_list(
    list: &gpufhe::CompressedSquashedNoiseCiphertextList,
    client: &ClientKey,
) {
    for i in 0..list.len() {
        if let Ok(Some(x)) = list.get::<gpufhe::SquashedNoiseFheUint>(i) {
            let _ = FheTryDecrypt::<u64>::try_decrypt(&x, client);
        } else if let Ok(Some(x)) = list.get::<gpufhe::SquashedNoiseFheInt>(i) {
            let _ = FheTryDecrypt::<i64>::try_decrypt(&x, client);
        } else if let Ok(Some(x)) = list.get::<gpufhe::SquashedNoiseFheBool>(i) {
            let _ = FheTryDecrypt::<bool>::try_decrypt(&x, client);
        }
    }
}

impl Exercise for gpufhe::CompactPublicKey {
    fn exercise(&self, keys: &Keys, conformant: bool) {
        // Whatever its words, a public key encrypts something without a panic.
        if let Ok(x) = FheUint8::try_encrypt(0x5au8, self) {
            let _ = FheTryDecrypt::<u8>::try_decrypt(&x, &keys.client);
        } else {
            assert!(!conformant, "a conformant public key does not encrypt");
        }
    }
}

/// The classical public keys (and the compact-form ones of gpufhe's own format):
/// whatever their words, they encrypt without a panic.
macro_rules! public_key_exercise {
    ($($ty:ty),*) => {$(
        impl Exercise for $ty {
            fn exercise(&self, keys: &Keys, conformant: bool) {
                if let Ok(x) = FheUint8::try_encrypt(0x5au8, self) {
                    let _ = FheTryDecrypt::<u8>::try_decrypt(&x, &keys.client);
                } else {
                    assert!(!conformant, "a conformant public key does not encrypt");
                }
            }
        }
    )*};
}
public_key_exercise!(gpufhe::PublicKey, gpufhe::CompressedPublicKey);

impl Exercise for gpufhe::CompressedCompactPublicKey {
    fn exercise(&self, keys: &Keys, conformant: bool) {
        // A key that was read decompresses, and the result encrypts without a panic.
        match self.try_decompress() {
            Ok(key) => key.exercise(keys, conformant),
            Err(_) => assert!(
                !conformant,
                "a conformant compressed key does not decompress"
            ),
        }
    }
}

impl Exercise for gpufhe::CompressedCiphertextList {
    fn exercise(&self, keys: &Keys, conformant: bool) {
        // Values of a conformant list read back and compute; any list reads as
        // another kind with an `Err`, not a panic.
        use gpufhe::FheTypes;
        set_server_key(keys.server.clone());
        for i in 0..self.len() {
            match self.get_kind_of(i) {
                Some(FheTypes::Bool) => {
                    let read = self.get::<FheBool>(i);
                    if let Some(Some(b)) = require(conformant, "decompressing", read) {
                        let _ = require(conformant, "computing", b.try_and(&b));
                    }
                }
                Some(FheTypes::Uint8) => {
                    let read = self.get::<FheUint8>(i);
                    if let Some(Some(x)) = require(conformant, "decompressing", read) {
                        let _ = require(conformant, "computing", x.try_bitand(&x));
                    }
                }
                _ => assert!(self.get::<FheUint8>(i).is_err()),
            }
        }
    }
}

impl Exercise for gpufhe::CompactCiphertextList {
    fn exercise(&self, keys: &Keys, _conformant: bool) {
        if let Ok(values) = self.expand() {
            set_server_key(keys.server.clone());
            for i in 0..values.len() {
                if let Ok(Some(x)) = values.get::<FheUint8>(i) {
                    let _ = x.try_bitand(&x);
                }
            }
        }
    }
}

impl<Id: gpufhe::high_level::FheIntId> Exercise for gpufhe::FheInt<Id>
where
    gpufhe::FheInt<Id>: FheTryDecrypt<Id::Clear>,
{
    fn exercise(&self, keys: &Keys, conformant: bool) {
        set_server_key(keys.server.clone());
        let _ = require(conformant, "computing", self.try_bitand(self));
        let _ = FheTryDecrypt::<Id::Clear>::try_decrypt(self, &keys.client);
    }
}

impl<Id: gpufhe::high_level::FheUintId> Exercise for FheUint<Id>
where
    FheUint<Id>: FheTryDecrypt<Id::Clear>,
{
    fn exercise(&self, keys: &Keys, conformant: bool) {
        set_server_key(keys.server.clone());
        let _ = require(conformant, "computing", self.try_bitand(self));
        let _ = FheTryDecrypt::<Id::Clear>::try_decrypt(self, &keys.client);
    }
}

/// A compressed value: decompressed (an `Err` is fine unless it conforms), then
/// used as the value it holds.
fn exercise_decompressed<T: Exercise>(read: gpufhe::Result<T>, keys: &Keys, conformant: bool) {
    if let Some(value) = require(conformant, "decompressing", read) {
        value.exercise(keys, conformant);
    }
}

impl Exercise for gpufhe::CompressedFheBool {
    fn exercise(&self, keys: &Keys, conformant: bool) {
        exercise_decompressed(self.try_decompress(), keys, conformant);
    }
}

impl<Id: gpufhe::high_level::FheUintId> Exercise for gpufhe::CompressedFheUint<Id>
where
    Self: SafeSerialization + Conformant,
    FheUint<Id>: Exercise,
{
    fn exercise(&self, keys: &Keys, conformant: bool) {
        exercise_decompressed(self.try_decompress(), keys, conformant);
    }
}

impl<Id: gpufhe::high_level::FheIntId> Exercise for gpufhe::CompressedFheInt<Id>
where
    Self: SafeSerialization + Conformant,
    gpufhe::FheInt<Id>: Exercise,
{
    fn exercise(&self, keys: &Keys, conformant: bool) {
        exercise_decompressed(self.try_decompress(), keys, conformant);
    }
}
