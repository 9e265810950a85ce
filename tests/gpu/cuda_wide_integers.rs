//! The widths above 128 bits and the small signed widths with a GPU server key, one
//! batch per family, every result against the clear value. The circuits are those
//! of every width (the CPU tests run them all, `tests/high_level/wide_integers.rs`);
//! what a width changes on the GPU is how many blocks move and how the clear values
//! enter: each family adds, compares, multiplies by a clear or casts on the GPU, in
//! about 1,400 bootstraps (25 s of the kernels' emulation on the fake driver in CI). Skips
//! without a GPU.

use crate::cuda_high_level::{gpu_keys, GPU0};

use gpufhe::integer::bigint::{I2048, I256, I512, U2048, U256, U512};
use gpufhe::prelude::*;
use gpufhe::{
    FheInt160, FheInt2, FheInt2048, FheInt512, FheUint160, FheUint2048, FheUint512, FheUint64,
    FheUint8,
};

#[test]
fn new_widths_add_compare_multiply_and_cast_on_the_gpu() {
    let Some(keys) = gpu_keys() else { return };
    let (ck, key) = (&keys.client, &keys.gpu);
    gpufhe::set_server_key(key.clone());

    // 160 bits: +, <, a product by a clear and a cast to 64 bits, in one circuit.
    let (a, b) = (U256::MAX >> 97u32, (U256::ONE << 100u32) + U256::from(3u8));
    let (x, y) = (FheUint160::encrypt(a, ck), FheUint160::encrypt(b, ck));
    let (sum, lt, product, low) = key
        .run_batch(&[()], |_| {
            (
                &x + &y,
                y.lt(&x),
                &y * U256::from(5u8),
                FheUint64::cast_from(x.clone()),
            )
        })
        .unwrap()
        .remove(0);
    assert_eq!(sum.current_device(), GPU0);
    let mask = U256::MAX >> 96u32;
    assert_eq!(FheDecrypt::<U256>::decrypt(&sum, ck), (a + b) & mask);
    assert!(lt.decrypt(ck));
    assert_eq!(
        FheDecrypt::<U256>::decrypt(&product, ck),
        b * U256::from(5u8)
    );
    assert_eq!(FheDecrypt::<u64>::decrypt(&low, ck), u64::MAX);

    // 512 bits: + with a clear, and a cast up to 2048 bits.
    let a = U512::MAX - U512::from(1u8);
    let x = FheUint512::encrypt(a, ck);
    let (sum, wide) = key
        .run_batch(&[()], |_| {
            (&x + U512::from(9u8), FheUint2048::cast_from(x.clone()))
        })
        .unwrap()
        .remove(0);
    assert_eq!(FheDecrypt::<U512>::decrypt(&sum, ck), U512::from(7u8));
    assert_eq!(FheDecrypt::<U2048>::decrypt(&wide, ck), U2048::from(a));

    // 2048 bits: 1,024 blocks to the GPU and back, a bitwise not (linear, no
    // bootstrap) and a cast down.
    let big = FheUint2048::encrypt(U2048::ONE << 2000u32, ck);
    let flipped = !&big;
    assert_eq!(flipped.current_device(), GPU0);
    assert_eq!(
        FheDecrypt::<U2048>::decrypt(&flipped, ck),
        !(U2048::ONE << 2000u32)
    );
    let byte: u8 = FheUint8::cast_from(flipped).decrypt(ck);
    assert_eq!(byte, u8::MAX);

    // Signed: 2 bits, a 160-bit product by a negative clear and comparison, a
    // sign extension from 512 to 2048 bits.
    let two = FheInt2::encrypt(-2i8, ck);
    assert_eq!(FheDecrypt::<i8>::decrypt(&(&two + 1i8), ck), -1);
    let s = FheInt160::encrypt(I256::from(-7i8), ck);
    let (p, negative) = key
        .run_batch(&[()], |_| (&s * I256::from(6i8), s.lt(0i8)))
        .unwrap()
        .remove(0);
    assert_eq!(FheDecrypt::<I256>::decrypt(&p, ck), I256::from(-42i8));
    assert!(negative.decrypt(ck));
    let m = FheInt512::encrypt(I512::MIN, ck);
    let extended: I2048 = FheInt2048::cast_from(m).decrypt(ck);
    assert_eq!(extended, I512::MIN.resize::<32>());
}
