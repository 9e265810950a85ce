//! The compression scenarios of `tfhers_interop`: server keys with compression
//! keys (plain, or compressed and decompressed by the reader) made by one library
//! and used by the other to compress values into a CompressedCiphertextList that
//! the first library decompresses and decrypts, and lists made by one library
//! decompressed by the other.

use super::tfhers;
use super::tfhers_keys::{gf_bytes, gf_read, tf_bytes, tf_read};

/// TFHE-rs's client key of the chosen parameters with compression (and TFHE-rs's
/// default dedicated OPRF key).
fn tfhe_client_key(small: bool) -> tfhe::ClientKey {
    use tfhe::shortint::parameters::COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as COMP;
    let config = if small {
        tfhe::ConfigBuilder::with_custom_parameters(tfhers::small_parameters())
            .enable_compression(tfhers::small_compression_parameters())
    } else {
        tfhe::ConfigBuilder::default().enable_compression(COMP)
    };
    tfhe::ClientKey::generate(config.build())
}

/// gpufhe's client key of the chosen parameters with compression.
fn gpufhe_client_key(small: bool) -> Result<gpufhe::ClientKey, String> {
    use gpufhe::shortint::*;
    let (parameters, compression) = if small {
        (
            PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
            COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
        )
    } else {
        (
            DEFAULT_PARAMETERS,
            COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        )
    };
    let config = gpufhe::ConfigBuilder::default()
        .with_insecure_custom_parameters(parameters)
        .map_err(|e| e.to_string())?
        .enable_compression(compression);
    Ok(gpufhe::ClientKey::generate(config.build()))
}

fn e(error: impl std::fmt::Display) -> String {
    error.to_string()
}

/// TFHE-rs's keys with compression keys read by gpufhe (its ServerKey, or its
/// CompressedServerKey decompressed by gpufhe, whose dedicated OPRF key, expanded by
/// gpufhe, gives TFHE-rs the pseudo-random values its own key gives):
/// gpufhe compresses TFHE-rs's values into a list that TFHE-rs decompresses and
/// decrypts; gpufhe decompresses TFHE-rs's list into values TFHE-rs decrypts.
pub fn tfhe_compression_keys_in_gpufhe(small: bool, compressed: bool) -> Result<(), String> {
    use tfhe::prelude::*;
    let ck = tfhe_client_key(small);
    let compressed_key = tfhe::CompressedServerKey::new(&ck);
    let server_key = compressed_key.decompress();
    let tf_server_key_bytes = tf_bytes(&server_key)?;
    let gf_key: gpufhe::ServerKey = if compressed {
        let key: gpufhe::CompressedServerKey = gf_read(&tf_bytes(&compressed_key)?)?;
        if gf_bytes(&key)? != tf_bytes(&compressed_key)? {
            return Err("TFHE-rs's CompressedServerKey is not written back byte for byte".into());
        }
        let key = key.try_decompress().map_err(e)?;
        // TFHE-rs computes the same pseudo-random values with the key gpufhe
        // decompressed (its dedicated OPRF key expanded by gpufhe) as with its own.
        let ours: tfhe::ServerKey = tf_read(&gf_bytes(&key)?)?;
        let oprf = |server_key: tfhe::ServerKey| -> Vec<u8> {
            tfhe::set_server_key(server_key);
            (0..4u128)
                .map(|s| {
                    tfhe::FheUint8::generate_oblivious_pseudo_random(tfhe::Seed(s)).decrypt(&ck)
                })
                .collect()
        };
        let (theirs, ours) = (oprf(server_key.clone()), oprf(ours));
        if theirs != ours {
            return Err(format!(
                "pseudo-random values {ours:?} with gpufhe's decompressed key, {theirs:?} with \
                 TFHE-rs's"
            ));
        }
        key
    } else {
        let key: gpufhe::ServerKey = gf_read(&tf_server_key_bytes)?;
        if gf_bytes(&key)? != tf_server_key_bytes {
            return Err("TFHE-rs's ServerKey is not written back byte for byte".into());
        }
        key
    };
    tfhe::set_server_key(server_key);
    // gpufhe compresses TFHE-rs's values.
    let a: gpufhe::FheUint8 = gf_read(&tf_bytes(&tfhe::FheUint8::encrypt(201u8, &ck))?)?;
    let b: gpufhe::FheInt16 = gf_read(&tf_bytes(&tfhe::FheInt16::encrypt(-12345i16, &ck))?)?;
    let c: gpufhe::FheBool = gf_read(&tf_bytes(&tfhe::FheBool::encrypt(true, &ck))?)?;
    let mut builder = gpufhe::CompressedCiphertextListBuilder::new();
    builder.push(a).push(b).push(c);
    let list = builder.build_with(&gf_key).map_err(e)?;
    let list: tfhe::CompressedCiphertextList = tf_read(&gf_bytes(&list)?)?;
    let a: tfhe::FheUint8 = list.get(0).map_err(e)?.ok_or("no value 0")?;
    let b: tfhe::FheInt16 = list.get(1).map_err(e)?.ok_or("no value 1")?;
    let c: tfhe::FheBool = list.get(2).map_err(e)?.ok_or("no value 2")?;
    let clears: (u8, i16, bool) = (a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck));
    if clears != (201, -12345, true) {
        return Err(format!("TFHE-rs decrypted gpufhe's list as {clears:?}"));
    }
    // gpufhe decompresses TFHE-rs's list.
    let mut builder = tfhe::CompressedCiphertextListBuilder::new();
    builder
        .push(tfhe::FheUint8::encrypt(87u8, &ck))
        .push(tfhe::FheBool::encrypt(false, &ck));
    let list_bytes = tf_bytes(&builder.build().map_err(e)?)?;
    gpufhe::set_server_key(gf_key.clone());
    let list: gpufhe::CompressedCiphertextList = gf_read(&list_bytes)?;
    if gf_bytes(&list)? != list_bytes {
        return Err("TFHE-rs's list is not written back byte for byte".into());
    }
    let a: gpufhe::FheUint8 = list.get_with(0, &gf_key).map_err(e)?.ok_or("no value 0")?;
    let c: gpufhe::FheBool = list.get_with(1, &gf_key).map_err(e)?.ok_or("no value 1")?;
    let a: tfhe::FheUint8 = tf_read(&gf_bytes(&a)?)?;
    let c: tfhe::FheBool = tf_read(&gf_bytes(&c)?)?;
    let clears: (u8, bool) = (a.decrypt(&ck), c.decrypt(&ck));
    (clears == (87, false)).then_some(()).ok_or(format!(
        "TFHE-rs decrypted gpufhe's decompressions as {clears:?}"
    ))
}

/// gpufhe's keys with compression keys (its ServerKey, or its CompressedServerKey
/// decompressed by TFHE-rs) read by TFHE-rs: TFHE-rs compresses gpufhe's values
/// into a list that gpufhe decompresses and decrypts; TFHE-rs decompresses
/// gpufhe's list into values gpufhe decrypts.
pub fn gpufhe_compression_keys_in_tfhe(small: bool, compressed: bool) -> Result<(), String> {
    use gpufhe::prelude::*;
    use tfhe::prelude::CiphertextList as _;
    let ck = gpufhe_client_key(small)?;
    let compressed_key = gpufhe::CompressedServerKey::new(&ck);
    let gf_key = compressed_key.try_decompress().map_err(e)?;
    let tf_key: tfhe::ServerKey = if compressed {
        let key: tfhe::CompressedServerKey = tf_read(&gf_bytes(&compressed_key)?)?;
        key.decompress()
    } else {
        tf_read(&gf_bytes(&gf_key)?)?
    };
    tfhe::set_server_key(tf_key);
    // TFHE-rs compresses gpufhe's values.
    let a: tfhe::FheUint8 = tf_read(&gf_bytes(&gpufhe::FheUint8::encrypt(201u8, &ck))?)?;
    let b: tfhe::FheInt16 = tf_read(&gf_bytes(&gpufhe::FheInt16::encrypt(-12345i16, &ck))?)?;
    let c: tfhe::FheBool = tf_read(&gf_bytes(&gpufhe::FheBool::encrypt(true, &ck))?)?;
    let mut builder = tfhe::CompressedCiphertextListBuilder::new();
    builder.push(a).push(b).push(c);
    let list: gpufhe::CompressedCiphertextList = gf_read(&tf_bytes(&builder.build().map_err(e)?)?)?;
    let a: gpufhe::FheUint8 = list.get_with(0, &gf_key).map_err(e)?.ok_or("no value 0")?;
    let b: gpufhe::FheInt16 = list.get_with(1, &gf_key).map_err(e)?.ok_or("no value 1")?;
    let c: gpufhe::FheBool = list.get_with(2, &gf_key).map_err(e)?.ok_or("no value 2")?;
    let clears: (u8, i16, bool) = (a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck));
    if clears != (201, -12345, true) {
        return Err(format!("gpufhe decrypted TFHE-rs's list as {clears:?}"));
    }
    // TFHE-rs decompresses gpufhe's list.
    let mut builder = gpufhe::CompressedCiphertextListBuilder::new();
    builder
        .push(gpufhe::FheUint8::encrypt(87u8, &ck))
        .push(gpufhe::FheBool::encrypt(false, &ck));
    let list: tfhe::CompressedCiphertextList =
        tf_read(&gf_bytes(&builder.build_with(&gf_key).map_err(e)?)?)?;
    let a: tfhe::FheUint8 = list.get(0).map_err(e)?.ok_or("no value 0")?;
    let c: tfhe::FheBool = list.get(1).map_err(e)?.ok_or("no value 1")?;
    let a: gpufhe::FheUint8 = gf_read(&tf_bytes(&a)?)?;
    let c: gpufhe::FheBool = gf_read(&tf_bytes(&c)?)?;
    let clears: (u8, bool) = (a.decrypt(&ck), c.decrypt(&ck));
    (clears == (87, false)).then_some(()).ok_or(format!(
        "gpufhe decrypted TFHE-rs's decompressions as {clears:?}"
    ))
}
