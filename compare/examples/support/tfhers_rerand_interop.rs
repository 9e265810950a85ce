//! Re-randomization both ways (`DerivedCPKWithoutKeySwitch`): one library makes the
//! keys and values (with metadata), the other reads its CompressedServerKey and
//! values and re-randomizes them with a context; the first re-randomizes the same
//! values with the same context, and the two results must be the same bytes; the
//! first decrypts the other's results and a sum computed on them.

use super::tfhers_keys::{gf_bytes, gf_read, tf_bytes, tf_read};

const A: u64 = 0xfedc_ba98_7654_3210;
const B: i16 = -1234;

/// `$name(values..)`: the values re-randomized in `$lib` with the scenario's
/// context (the same code for both libraries, whose APIs are the same).
macro_rules! rerand_fn {
    ($name:ident, $lib:ident) => {
        fn $name(
            a: &mut $lib::FheUint64,
            b: &mut $lib::FheInt16,
            c: &mut $lib::FheBool,
        ) -> Result<(), String> {
            use $lib::prelude::*;
            let mut ctx = $lib::ReRandomizationContext::new(
                *b"TFHE_Rrd",
                [b"interop".as_slice(), &[3u8; 32]],
                *b"TFHE_Enc",
            );
            ctx.add_ciphertext(&*a);
            ctx.add_ciphertext(&*b);
            ctx.add_ciphertext(&*c);
            let mut seeds = ctx.finalize();
            let mode = $lib::ReRandomizationMode::default();
            let e = |e: $lib::Error| e.to_string();
            a.re_randomize(mode, seeds.next_seed().map_err(e)?)
                .map_err(e)?;
            b.re_randomize(mode, seeds.next_seed().map_err(e)?)
                .map_err(e)?;
            c.re_randomize(mode, seeds.next_seed().map_err(e)?)
                .map_err(e)?;
            Ok(())
        }
    };
}

rerand_fn!(tf_rerand, tfhe);
rerand_fn!(gf_rerand, gpufhe);

fn same(what: &str, x: &[u8], y: &[u8]) -> Result<(), String> {
    if x == y {
        Ok(())
    } else {
        Err(format!(
            "the re-randomized {what} differ between the libraries"
        ))
    }
}

/// TFHE-rs's keys and values, re-randomized by gpufhe.
pub fn tfhe_keys_gpufhe_rerand(small: bool) -> Result<(), String> {
    use tfhe::prelude::*;
    use tfhe::shortint::parameters::ReRandomizationParameters;
    let builder = if small {
        tfhe::ConfigBuilder::with_custom_parameters(super::tfhers::small_parameters())
    } else {
        tfhe::ConfigBuilder::default()
    };
    let config = builder
        .enable_ciphertext_re_randomization(ReRandomizationParameters::DerivedCPKWithoutKeySwitch)
        .build();
    let ck = tfhe::ClientKey::generate(config);
    let compressed = tfhe::CompressedServerKey::new(&ck);
    tfhe::set_server_key(compressed.decompress());
    let mut a = tfhe::FheUint64::encrypt(A, &ck);
    let mut b = tfhe::FheInt16::encrypt(B, &ck);
    let mut c = tfhe::FheBool::encrypt(true, &ck);
    a.re_randomization_metadata_mut().set_data(b"a's proof");
    let inputs = [tf_bytes(&a)?, tf_bytes(&b)?, tf_bytes(&c)?];
    let key = tf_bytes(&compressed)?;
    tf_rerand(&mut a, &mut b, &mut c)?;
    // gpufhe: the same.
    let gkey: gpufhe::CompressedServerKey = gf_read(&key)?;
    gpufhe::set_server_key(gkey.try_decompress().map_err(|e| e.to_string())?);
    let (mut ga, mut gb, mut gc): (gpufhe::FheUint64, gpufhe::FheInt16, gpufhe::FheBool) = (
        gf_read(&inputs[0])?,
        gf_read(&inputs[1])?,
        gf_read(&inputs[2])?,
    );
    gf_rerand(&mut ga, &mut gb, &mut gc)?;
    let sum = gf_bytes(&(&ga + 1u64))?;
    let outputs = [gf_bytes(&ga)?, gf_bytes(&gb)?, gf_bytes(&gc)?];
    gpufhe::unset_server_key();
    same("FheUint64", &outputs[0], &tf_bytes(&a)?)?;
    same("FheInt16", &outputs[1], &tf_bytes(&b)?)?;
    same("FheBool", &outputs[2], &tf_bytes(&c)?)?;
    let sum: tfhe::FheUint64 = tf_read(&sum)?;
    let c: tfhe::FheBool = tf_read(&outputs[2])?;
    let got: (u64, bool) = (sum.decrypt(&ck), c.decrypt(&ck));
    tfhe::unset_server_key();
    if got == (A.wrapping_add(1), true) {
        Ok(())
    } else {
        Err(format!("decrypted {got:?}"))
    }
}

/// gpufhe's keys and values, re-randomized by TFHE-rs.
pub fn gpufhe_keys_tfhe_rerand(small: bool) -> Result<(), String> {
    use gpufhe::prelude::*;
    use gpufhe::shortint::parameters::ReRandomizationParameters;
    let builder = if small {
        gpufhe::ConfigBuilder::default()
            .with_insecure_custom_parameters(
                gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
            )
            .map_err(|e| e.to_string())?
    } else {
        gpufhe::ConfigBuilder::default()
    };
    let config = builder
        .enable_ciphertext_re_randomization(ReRandomizationParameters::DerivedCPKWithoutKeySwitch);
    let ck = gpufhe::ClientKey::try_generate(config).map_err(|e| e.to_string())?;
    let compressed = gpufhe::CompressedServerKey::try_new(&ck).map_err(|e| e.to_string())?;
    gpufhe::set_server_key(compressed.try_decompress().map_err(|e| e.to_string())?);
    let mut a = gpufhe::FheUint64::encrypt(A, &ck);
    let mut b = gpufhe::FheInt16::encrypt(B, &ck);
    let mut c = gpufhe::FheBool::encrypt(true, &ck);
    a.re_randomization_metadata_mut().set_data(b"a's proof");
    let inputs = [gf_bytes(&a)?, gf_bytes(&b)?, gf_bytes(&c)?];
    let key = gf_bytes(&compressed)?;
    gf_rerand(&mut a, &mut b, &mut c)?;
    // TFHE-rs: the same.
    let tkey: tfhe::CompressedServerKey = tf_read(&key)?;
    tfhe::set_server_key(tkey.decompress());
    let (mut ta, mut tb, mut tc): (tfhe::FheUint64, tfhe::FheInt16, tfhe::FheBool) = (
        tf_read(&inputs[0])?,
        tf_read(&inputs[1])?,
        tf_read(&inputs[2])?,
    );
    tf_rerand(&mut ta, &mut tb, &mut tc)?;
    let sum = tf_bytes(&(&ta + 1u64))?;
    let outputs = [tf_bytes(&ta)?, tf_bytes(&tb)?, tf_bytes(&tc)?];
    tfhe::unset_server_key();
    same("FheUint64", &outputs[0], &gf_bytes(&a)?)?;
    same("FheInt16", &outputs[1], &gf_bytes(&b)?)?;
    same("FheBool", &outputs[2], &gf_bytes(&c)?)?;
    let sum: gpufhe::FheUint64 = gf_read(&sum)?;
    let b: gpufhe::FheInt16 = gf_read(&outputs[1])?;
    let got: (u64, i16) = (sum.decrypt(&ck), b.decrypt(&ck));
    gpufhe::unset_server_key();
    if got == (A.wrapping_add(1), B) {
        Ok(())
    } else {
        Err(format!("decrypted {got:?}"))
    }
}
