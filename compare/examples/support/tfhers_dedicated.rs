//! The dedicated compact public-key scenarios of `tfhers_interop`: a client of one
//! library with dedicated public-key parameters (TFHE-rs's
//! `use_dedicated_compact_public_key_parameters`: a key of its own, lists cast to
//! the computation key on expansion) and a server of the other, which reads its
//! server key (compressed, and plain), expands its compact lists (plain and
//! packed), computes, and sends the results back to be decrypted.

use super::tfhers_keys::{gf_bytes, gf_read, tf_bytes, tf_read};

/// The values of the lists, in order: an u8, a bool, an i16.
const A: u8 = 201;
const B: bool = true;
const C: i16 = -1234;

/// TFHE-rs's configuration of dedicated public-key parameters.
fn tfhe_config(small: bool) -> tfhe::Config {
    use tfhe::shortint::parameters::{
        CarryModulus, CiphertextModulus, CompactCiphertextListExpansionKind,
        CompactPublicKeyEncryptionParameters, DynamicDistribution, LweDimension, MessageModulus,
        SupportedCompactPkeZkScheme, PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
        PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as PKE,
    };
    if small {
        // gpufhe's PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2.
        let pke = CompactPublicKeyEncryptionParameters {
            encryption_lwe_dimension: LweDimension(512),
            encryption_noise_distribution: DynamicDistribution::new_t_uniform(20),
            message_modulus: MessageModulus(4),
            carry_modulus: CarryModulus(4),
            ciphertext_modulus: CiphertextModulus::new_native(),
            expansion_kind: CompactCiphertextListExpansionKind::RequiresCasting,
            zk_scheme: SupportedCompactPkeZkScheme::ZkNotSupported,
        };
        tfhe::ConfigBuilder::with_custom_parameters(super::tfhers::small_parameters())
            .use_dedicated_compact_public_key_parameters((pke, KS))
            .build()
    } else {
        tfhe::ConfigBuilder::default()
            .use_dedicated_compact_public_key_parameters((PKE, KS))
            .build()
    }
}

/// gpufhe's configuration of dedicated public-key parameters.
fn gpufhe_config(small: bool) -> Result<gpufhe::Config, String> {
    use gpufhe::shortint::parameters::{
        PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
        PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2,
        PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    };
    let (blocks, pke) = if small {
        (
            gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
            PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2,
        )
    } else {
        (
            gpufhe::shortint::DEFAULT_PARAMETERS,
            PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        )
    };
    Ok(gpufhe::ConfigBuilder::default()
        .with_insecure_custom_parameters(blocks)
        .map_err(|e| e.to_string())?
        .use_dedicated_compact_public_key_parameters((pke, KS))
        .build())
}

fn check(got: (u8, bool, i16)) -> Result<(), String> {
    let want = (A.wrapping_add(1), !B, C.wrapping_mul(3));
    if got == want {
        Ok(())
    } else {
        Err(format!("decrypted {got:?}, expected {want:?}"))
    }
}

/// A TFHE-rs client of dedicated parameters, a gpufhe server.
pub fn tfhe_client_gpufhe_server(small: bool) -> Result<(), String> {
    use tfhe::prelude::*;
    let ck = tfhe::ClientKey::generate(tfhe_config(small));
    let compressed = tfhe::CompressedServerKey::new(&ck);
    let pk = tfhe::CompactPublicKey::new(&ck);
    let mut builder = tfhe::CompactCiphertextList::builder(&pk);
    builder.push(A).push(B).push(C);
    let lists = [
        tf_bytes(&builder.build())?,
        tf_bytes(&builder.build_packed())?,
    ];
    let server_keys = [tf_bytes(&compressed)?, tf_bytes(&compressed.decompress())?];
    // gpufhe: each server key (compressed, then plain) expands each list.
    for (i, key) in server_keys.iter().enumerate() {
        let key = if i == 0 {
            gf_read::<gpufhe::CompressedServerKey>(key)?
                .try_decompress()
                .map_err(|e| e.to_string())?
        } else {
            gf_read::<gpufhe::ServerKey>(key)?
        };
        gpufhe::set_server_key(key);
        for list in &lists {
            let list: gpufhe::CompactCiphertextList = gf_read(list)?;
            let expander = list.expand().map_err(|e| e.to_string())?;
            let a: gpufhe::FheUint8 = expander.get(0).map_err(|e| e.to_string())?.ok_or("no a")?;
            let b: gpufhe::FheBool = expander.get(1).map_err(|e| e.to_string())?.ok_or("no b")?;
            let c: gpufhe::FheInt16 = expander.get(2).map_err(|e| e.to_string())?.ok_or("no c")?;
            let results = [
                gf_bytes(&(&a + 1u8))?,
                gf_bytes(&!&b)?,
                gf_bytes(&(&c * 3i16))?,
            ];
            // TFHE-rs decrypts.
            let a: tfhe::FheUint8 = tf_read(&results[0])?;
            let b: tfhe::FheBool = tf_read(&results[1])?;
            let c: tfhe::FheInt16 = tf_read(&results[2])?;
            check((a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck)))?;
        }
        gpufhe::unset_server_key();
    }
    Ok(())
}

/// A gpufhe client of dedicated parameters, a TFHE-rs server.
pub fn gpufhe_client_tfhe_server(small: bool) -> Result<(), String> {
    use gpufhe::prelude::*;
    let ck = gpufhe::ClientKey::try_generate(gpufhe_config(small)?).map_err(|e| e.to_string())?;
    let compressed = gpufhe::CompressedServerKey::try_new(&ck).map_err(|e| e.to_string())?;
    let pk = gpufhe::CompactPublicKey::try_new(&ck).map_err(|e| e.to_string())?;
    let list = gpufhe::CompactCiphertextList::builder(&pk)
        .push(A)
        .push(B)
        .push(C)
        .try_build()
        .map_err(|e| e.to_string())?;
    let (key, list) = (gf_bytes(&compressed)?, gf_bytes(&list)?);
    let client_key = gf_bytes(&ck)?;
    // TFHE-rs: reads the server key, expands, computes.
    let results = {
        use tfhe::prelude::*;
        let key: tfhe::CompressedServerKey = tf_read(&key)?;
        tfhe::set_server_key(key.decompress());
        let list: tfhe::CompactCiphertextList = tf_read(&list)?;
        let expander = list.expand().map_err(|e| e.to_string())?;
        let a: tfhe::FheUint8 = expander.get(0).map_err(|e| e.to_string())?.ok_or("no a")?;
        let b: tfhe::FheBool = expander.get(1).map_err(|e| e.to_string())?.ok_or("no b")?;
        let c: tfhe::FheInt16 = expander.get(2).map_err(|e| e.to_string())?.ok_or("no c")?;
        let (a, b, c) = (&a + 1u8, !&b, &c * 3i16);
        tfhe::unset_server_key();
        // TFHE-rs also decrypts with gpufhe's client key read from its bytes.
        let tck: tfhe::ClientKey = tf_read(&client_key)?;
        check((a.decrypt(&tck), b.decrypt(&tck), c.decrypt(&tck)))?;
        [tf_bytes(&a)?, tf_bytes(&b)?, tf_bytes(&c)?]
    };
    let a: gpufhe::FheUint8 = gf_read(&results[0])?;
    let b: gpufhe::FheBool = gf_read(&results[1])?;
    let c: gpufhe::FheInt16 = gf_read(&results[2])?;
    check((a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck)))
}
