//! The key scenarios of `tfhers_interop`: TFHE-rs's `KeySwitchingKey`,
//! `PublicKey` and `CompressedPublicKey` made by one library and used by the other.

use super::LIMIT;

/// `value` in TFHE-rs's bytes, written by TFHE-rs.
pub fn tf_bytes<T: serde::Serialize + tfhe::Versionize + tfhe::named::Named>(
    value: &T,
) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    tfhe::safe_serialization::safe_serialize(value, &mut bytes, LIMIT)
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// A `T` read by TFHE-rs.
pub fn tf_read<T: serde::de::DeserializeOwned + tfhe::Unversionize + tfhe::named::Named>(
    bytes: &[u8],
) -> Result<T, String> {
    tfhe::safe_serialization::safe_deserialize(bytes, LIMIT)
}

/// `value` in TFHE-rs's bytes, written by gpufhe.
pub fn gf_bytes<T: serde::Serialize + gpufhe::Versionize + gpufhe::named::Named>(
    value: &T,
) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    gpufhe::safe_serialization::safe_serialize(value, &mut bytes, LIMIT)
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// A `T` read by gpufhe (insecure parameters allowed).
pub fn gf_read<T: serde::de::DeserializeOwned + gpufhe::Unversionize + gpufhe::named::Named>(
    bytes: &[u8],
) -> Result<T, String> {
    gpufhe::serialization::with_insecure_parameters_allowed(|| {
        gpufhe::safe_serialization::safe_deserialize(bytes, LIMIT)
    })
}

/// TFHE-rs's KeySwitchingKey between two TFHE-rs key sets, read by gpufhe, switches
/// a TFHE-rs value; TFHE-rs decrypts the result with the destination client key.
pub fn tfhe_keyswitching_key_in_gpufhe(
    ck_1: &tfhe::ClientKey,
    ck_2: tfhe::ClientKey,
) -> Result<(), String> {
    use tfhe::prelude::*;
    let (sk_1, sk_2) = (tfhe::ServerKey::new(ck_1), tfhe::ServerKey::new(&ck_2));
    let ksk =
        tfhe::KeySwitchingKey::new((ck_1, &sk_1), (&ck_2, &sk_2)).map_err(|e| e.to_string())?;
    let ksk_bytes = tf_bytes(&ksk)?;
    let value = tf_bytes(&tfhe::FheUint8::encrypt(201u8, ck_1))?;
    let ksk: gpufhe::KeySwitchingKey = gf_read(&ksk_bytes)?;
    if gf_bytes(&ksk)? != ksk_bytes {
        return Err("gpufhe does not write TFHE-rs's KeySwitchingKey back byte for byte".into());
    }
    let x: gpufhe::FheUint8 = gf_read(&value)?;
    use gpufhe::FheKeyswitch;
    let moved = ksk.try_keyswitch(&x).map_err(|e| e.to_string())?;
    let moved: tfhe::FheUint8 = tf_read(&gf_bytes(&moved)?)?;
    let clear: u8 = moved.decrypt(&ck_2);
    (clear == 201)
        .then_some(())
        .ok_or(format!("decrypted {clear}, not 201"))
}

/// gpufhe's KeySwitchingKey between two gpufhe key sets, read by TFHE-rs, switches
/// a gpufhe value; gpufhe decrypts the result with the destination client key.
pub fn gpufhe_keyswitching_key_in_tfhe(
    ck_1: &gpufhe::ClientKey,
    ck_2: gpufhe::ClientKey,
) -> Result<(), String> {
    use gpufhe::prelude::*;
    let (sk_1, sk_2) = (gpufhe::ServerKey::new(ck_1), gpufhe::ServerKey::new(&ck_2));
    let ksk =
        gpufhe::KeySwitchingKey::new((ck_1, &sk_1), (&ck_2, &sk_2)).map_err(|e| e.to_string())?;
    let ksk: tfhe::KeySwitchingKey = tf_read(&gf_bytes(&ksk)?)?;
    let x: tfhe::FheUint8 = tf_read(&gf_bytes(&gpufhe::FheUint8::encrypt(87u8, ck_1))?)?;
    use tfhe::prelude::FheKeyswitch;
    let moved: gpufhe::FheUint8 = gf_read(&tf_bytes(&ksk.keyswitch(&x))?)?;
    let clear: u8 = moved.decrypt(&ck_2);
    (clear == 87)
        .then_some(())
        .ok_or(format!("decrypted {clear}, not 87"))
}

/// TFHE-rs's classical public key (plain, or compressed), read by gpufhe, encrypts
/// values that TFHE-rs decrypts.
pub fn tfhe_classical_public_key_in_gpufhe(
    ck: &tfhe::ClientKey,
    compressed: bool,
) -> Result<(), String> {
    use gpufhe::prelude::*;
    use tfhe::prelude::FheDecrypt as _;
    let encrypted = if compressed {
        let key: gpufhe::CompressedPublicKey =
            gf_read(&tf_bytes(&tfhe::CompressedPublicKey::new(ck))?)?;
        gpufhe::FheUint8::try_encrypt(173u8, &key).map_err(|e| e.to_string())?
    } else {
        let key: gpufhe::PublicKey = gf_read(&tf_bytes(&tfhe::PublicKey::new(ck))?)?;
        gpufhe::FheUint8::try_encrypt(173u8, &key).map_err(|e| e.to_string())?
    };
    let x: tfhe::FheUint8 = tf_read(&gf_bytes(&encrypted)?)?;
    let clear: u8 = x.decrypt(ck);
    (clear == 173)
        .then_some(())
        .ok_or(format!("decrypted {clear}, not 173"))
}

/// gpufhe's classical public key (plain, or compressed), read by TFHE-rs, encrypts
/// values that gpufhe decrypts.
pub fn gpufhe_classical_public_key_in_tfhe(
    ck: &gpufhe::ClientKey,
    compressed: bool,
) -> Result<(), String> {
    use gpufhe::prelude::FheDecrypt as _;
    use tfhe::prelude::*;
    let encrypted = if compressed {
        let key: tfhe::CompressedPublicKey =
            tf_read(&gf_bytes(&gpufhe::CompressedPublicKey::new_classical(ck))?)?;
        tfhe::FheUint8::encrypt(42u8, &key)
    } else {
        let key: tfhe::PublicKey = tf_read(&gf_bytes(&gpufhe::PublicKey::new_classical(ck))?)?;
        tfhe::FheUint8::encrypt(42u8, &key)
    };
    let x: gpufhe::FheUint8 = gf_read(&tf_bytes(&encrypted)?)?;
    let clear: u8 = x.decrypt(ck);
    (clear == 42)
        .then_some(())
        .ok_or(format!("decrypted {clear}, not 42"))
}
