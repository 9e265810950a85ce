//! The zero-knowledge scenarios of `tfhers_interop`: a client of one library
//! proves a compact list (dedicated public-key parameters, ZK v2, both compute
//! loads), the other library verifies it with the same CRS and public key, read
//! from the bytes the first wrote, then expands it and the client decrypts.
//! A wrong metadata must be refused on both sides.

use super::tfhers_keys::{gf_bytes, gf_read, tf_bytes, tf_read};

const A: u8 = 201;
const B: bool = true;
const C: i16 = -1234;
const METADATA: &[u8] = b"gpufhe-tfhe-rs";

/// TFHE-rs's configuration: dedicated public-key parameters for ZK v2 proofs.
fn tfhe_config(small: bool) -> tfhe::Config {
    use tfhe::shortint::parameters::{
        CarryModulus, CiphertextModulus, CompactCiphertextListExpansionKind,
        CompactPublicKeyEncryptionParameters, DynamicDistribution, LweDimension, MessageModulus,
        SupportedCompactPkeZkScheme, PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
        PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as PKE,
    };
    if small {
        // gpufhe's PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2.
        let pke = CompactPublicKeyEncryptionParameters {
            encryption_lwe_dimension: LweDimension(512),
            encryption_noise_distribution: DynamicDistribution::new_t_uniform(20),
            message_modulus: MessageModulus(4),
            carry_modulus: CarryModulus(4),
            ciphertext_modulus: CiphertextModulus::new_native(),
            expansion_kind: CompactCiphertextListExpansionKind::RequiresCasting,
            zk_scheme: SupportedCompactPkeZkScheme::V2,
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

/// gpufhe's configuration of the same parameters.
fn gpufhe_config(small: bool) -> Result<gpufhe::Config, String> {
    use gpufhe::shortint::parameters::{
        PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
        PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2,
        PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    };
    let (blocks, pke) = if small {
        (
            gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
            PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2,
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
    if got == (A, B, C) {
        Ok(())
    } else {
        Err(format!("decrypted {got:?}, expected {:?}", (A, B, C)))
    }
}

/// TFHE-rs proves (CRS, keys and lists made by TFHE-rs), gpufhe verifies and expands.
pub fn tfhe_prover_gpufhe_verifier(small: bool) -> Result<(), String> {
    use tfhe::prelude::*;
    let config = tfhe_config(small);
    let crs = tfhe::zk::CompactPkeCrs::from_config(config, 32).map_err(|e| e.to_string())?;
    let ck = tfhe::ClientKey::generate(config);
    let pk = tfhe::CompactPublicKey::new(&ck);
    let sk = tfhe::ServerKey::new(&ck);
    let (crs_bytes, pk_bytes, sk_bytes) = (tf_bytes(&crs)?, tf_bytes(&pk)?, tf_bytes(&sk)?);
    for load in [tfhe::zk::ZkComputeLoad::Proof, tfhe::zk::ZkComputeLoad::Verify] {
        let list = tfhe::ProvenCompactCiphertextList::builder(&pk)
            .push(A)
            .push(B)
            .push(C)
            .build_with_proof_packed(&crs, METADATA, load)
            .map_err(|e| e.to_string())?;
        let list_bytes = tf_bytes(&list)?;
        // gpufhe, from the bytes only.
        let crs: gpufhe::zk::CompactPkeCrs = gf_read(&crs_bytes)?;
        let pk: gpufhe::CompactPublicKey = gf_read(&pk_bytes)?;
        gpufhe::set_server_key(gf_read::<gpufhe::ServerKey>(&sk_bytes)?);
        let list: gpufhe::ProvenCompactCiphertextList = gf_read(&list_bytes)?;
        if list.verify(&crs, &pk, b"other").is_valid() {
            return Err("gpufhe accepted TFHE-rs's proof for other metadata".into());
        }
        let expander = list
            .verify_and_expand(&crs, &pk, METADATA)
            .map_err(|e| format!("gpufhe refused TFHE-rs's proof ({load:?}): {e}"))?;
        let a: gpufhe::FheUint8 = expander.get(0).map_err(|e| e.to_string())?.ok_or("no a")?;
        let b: gpufhe::FheBool = expander.get(1).map_err(|e| e.to_string())?.ok_or("no b")?;
        let c: gpufhe::FheInt16 = expander.get(2).map_err(|e| e.to_string())?.ok_or("no c")?;
        let results = [gf_bytes(&a)?, gf_bytes(&b)?, gf_bytes(&c)?];
        gpufhe::unset_server_key();
        let a: tfhe::FheUint8 = tf_read(&results[0])?;
        let b: tfhe::FheBool = tf_read(&results[1])?;
        let c: tfhe::FheInt16 = tf_read(&results[2])?;
        check((a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck)))?;
    }
    Ok(())
}

/// gpufhe proves (CRS, keys and lists made by gpufhe), TFHE-rs verifies and expands.
pub fn gpufhe_prover_tfhe_verifier(small: bool) -> Result<(), String> {
    use gpufhe::prelude::*;
    let config = gpufhe_config(small)?;
    let crs = gpufhe::zk::CompactPkeCrs::from_config(config, 32).map_err(|e| e.to_string())?;
    let ck = gpufhe::ClientKey::try_generate(config).map_err(|e| e.to_string())?;
    let pk = gpufhe::CompactPublicKey::try_new(&ck).map_err(|e| e.to_string())?;
    let compressed = gpufhe::CompressedServerKey::try_new(&ck).map_err(|e| e.to_string())?;
    let (crs_bytes, pk_bytes, key_bytes) = (gf_bytes(&crs)?, gf_bytes(&pk)?, gf_bytes(&compressed)?);
    for load in [gpufhe::zk::ZkComputeLoad::Proof, gpufhe::zk::ZkComputeLoad::Verify] {
        let list = gpufhe::ProvenCompactCiphertextList::builder(&pk)
            .push(A)
            .push(B)
            .push(C)
            .build_with_proof_packed(&crs, METADATA, load)
            .map_err(|e| e.to_string())?;
        let list_bytes = gf_bytes(&list)?;
        let results = {
            use tfhe::prelude::*;
            let crs: tfhe::zk::CompactPkeCrs = tf_read(&crs_bytes)?;
            let pk: tfhe::CompactPublicKey = tf_read(&pk_bytes)?;
            let key: tfhe::CompressedServerKey = tf_read(&key_bytes)?;
            tfhe::set_server_key(key.decompress());
            let list: tfhe::ProvenCompactCiphertextList = tf_read(&list_bytes)?;
            if list.verify(&crs, &pk, b"other").is_valid() {
                return Err("TFHE-rs accepted gpufhe's proof for other metadata".into());
            }
            let expander = list
                .verify_and_expand(&crs, &pk, METADATA)
                .map_err(|e| format!("TFHE-rs refused gpufhe's proof ({load:?}): {e}"))?;
            let a: tfhe::FheUint8 = expander.get(0).map_err(|e| e.to_string())?.ok_or("no a")?;
            let b: tfhe::FheBool = expander.get(1).map_err(|e| e.to_string())?.ok_or("no b")?;
            let c: tfhe::FheInt16 = expander.get(2).map_err(|e| e.to_string())?.ok_or("no c")?;
            tfhe::unset_server_key();
            [tf_bytes(&a)?, tf_bytes(&b)?, tf_bytes(&c)?]
        };
        let a: gpufhe::FheUint8 = gf_read(&results[0])?;
        let b: gpufhe::FheBool = gf_read(&results[1])?;
        let c: gpufhe::FheInt16 = gf_read(&results[2])?;
        check((a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck)))?;
    }
    Ok(())
}
