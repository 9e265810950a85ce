//! Encrypted arrays (`gpufhe::array`): the flows of TFHE-rs's two array programs (a
//! 2-D slice plus a slice, plus a clear array), every elementwise operator on
//! unsigned, signed and boolean arrays against the clear results, slices of slices,
//! mutable slices, sums, `fhe_array_contains`, and the refusals (shapes that differ,
//! ranges out of the shape, values of another key). On the insecure test parameters
//! (fast), except the last test: one small case on the default parameters, which also
//! counts bootstraps and layers (an `n`-element addition takes the layers of one).

use crate::common::counting_setup;
use crate::insecure_keys;
use crate::keys_and_threads::panic_message;

use gpufhe::array::{GpuFheUint32Array, GpuFheUint32Slice};
use gpufhe::prelude::*;
use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
use gpufhe::{
    fhe_array_contains, generate_keys, unset_server_key, ClearArray, ConfigBuilder,
    CpuFheUint32Array, Error, FheBool, FheBoolArray, FheInt8Array, FheUint32Array, FheUint8,
    FheUint8Array, FheUint8Slice,
};
use insecure_keys::setup;

/// The values `0, 1, ..., n - 1` as `u32`.
fn counting(n: u32) -> Vec<u32> {
    (0..n).collect()
}

#[test]
fn a_2d_slice_adds_a_slice_and_a_clear_array_as_in_tfhe_rs() {
    let ck = setup();
    // [[ 0,  1,  2,  3],
    //  [ 4,  5,  6,  7],
    //  [ 8,  9, 10, 11],
    //  [12, 13, 14, 15]] and a 4 x 4 array of ones.
    let xs = CpuFheUint32Array::try_encrypt((counting(16).as_slice(), vec![4, 4]), ck).unwrap();
    let ones = [1u32; 16];
    // The `Gpu` name is the same type: it computes wherever the thread's key does.
    let ys: GpuFheUint32Array = FheUint32Array::try_encrypt((&ones[..], vec![4, 4]), ck).unwrap();
    assert_eq!((xs.num_dim(), xs.shape()), (2, &[4, 4][..]));
    assert_eq!((ys.num_dim(), ys.shape()), (2, &[4, 4][..]));

    // The bottom-right corner, [[10, 11], [14, 15]].
    let corner: GpuFheUint32Slice<'_> = xs.slice(&[2..4, 2..4]);
    let ones_corner = ys.slice(&[2..4, 2..4]);
    assert_eq!((corner.num_dim(), corner.shape()), (2, &[2, 2][..]));
    assert_eq!(
        FheDecrypt::<Vec<u32>>::decrypt(&corner, ck),
        [10, 11, 14, 15]
    );

    let sum = &corner + &ones_corner;
    assert_eq!(sum.shape(), &[2, 2]);
    let clear: Vec<u32> = sum.decrypt(ck);
    assert_eq!(clear, [11, 12, 15, 16]);

    let offsets = ClearArray::new(vec![10u32, 20, 30, 40], vec![2, 2]);
    let clear: Vec<u32> = (&corner + &offsets).decrypt(ck);
    assert_eq!(clear, [20, 31, 44, 55]);
    // Owned and borrowed operands on either side give the same.
    let again: Vec<u32> = (corner + offsets).decrypt(ck);
    assert_eq!(again, [20, 31, 44, 55]);
}

#[test]
fn unsigned_operators_match_the_clear_ones() {
    let ck = setup();
    let a = [200u8, 7, 0, 255, 31, 64];
    let b = [100u8, 3, 9, 255, 5, 1];
    let xs = FheUint8Array::try_encrypt((&a[..], vec![2, 3]), ck).unwrap();
    let ys = FheUint8Array::try_encrypt((&b[..], vec![2, 3]), ck).unwrap();
    let clear_ys = ClearArray::new(b.to_vec(), vec![2, 3]);
    let expect = |f: fn(u8, u8) -> u8| a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect::<Vec<_>>();
    let check = |got: FheUint8Array, want: Vec<u8>, what: &str| {
        assert_eq!(got.shape(), &[2, 3], "{what}");
        assert_eq!(FheDecrypt::<Vec<u8>>::decrypt(&got, ck), want, "{what}");
    };
    check(&xs + &ys, expect(u8::wrapping_add), "+");
    check(&xs - &clear_ys, expect(u8::wrapping_sub), "- clear");
    check(xs.clone() * &ys, expect(u8::wrapping_mul), "*");
    check(&xs & ys.clone(), expect(|x, y| x & y), "&");
    check(&xs | &clear_ys, expect(|x, y| x | y), "| clear");
    check(
        xs.as_slice() ^ ys.as_slice(),
        expect(|x, y| x ^ y),
        "^ slices",
    );
    check(&xs / &ys, expect(|x, y| x / y), "/");
    check(&xs % &clear_ys, expect(|x, y| x % y), "% clear");
    check(!&xs, a.iter().map(|x| !x).collect(), "!");
    // A clear zero divisor is an error; an encrypted one gives MAX, as for FheUint.
    let zeros = ClearArray::new(vec![0u8; 6], vec![2, 3]);
    assert!(xs.try_div(&zeros).is_err());
    let encrypted_zeros = FheUint8Array::encrypt((&[0u8; 6][..], vec![2, 3]), ck);
    check(&xs / &encrypted_zeros, vec![u8::MAX; 6], "/ encrypted zero");
}

#[test]
fn signed_and_boolean_operators_match_the_clear_ones() {
    let ck = setup();
    let a = [-100i8, 7, -1, 127];
    let b = [50i8, -3, -1, 2];
    let xs = FheInt8Array::try_encrypt(&a[..], ck).unwrap();
    let ys = FheInt8Array::try_encrypt(&b[..], ck).unwrap();
    let clear_ys = ClearArray::new(b.to_vec(), vec![4]);
    let decrypt = |x: FheInt8Array| FheDecrypt::<Vec<i8>>::decrypt(&x, ck);
    let expect = |f: fn(i8, i8) -> i8| a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect::<Vec<_>>();
    assert_eq!(decrypt(&xs + &ys), expect(i8::wrapping_add));
    assert_eq!(decrypt(&xs - &clear_ys), expect(i8::wrapping_sub));
    assert_eq!(decrypt(&xs * &clear_ys), expect(i8::wrapping_mul));
    assert_eq!(decrypt(&xs ^ &ys), expect(|x, y| x ^ y));
    assert_eq!(decrypt(!xs.clone()), a.map(|x| !x));
    assert_eq!(FheDecrypt::<i8>::decrypt(&xs.sum(), ck), 33);

    let p = [true, false, true, false];
    let q = [true, true, false, false];
    let bs = FheBoolArray::try_encrypt((&p[..], vec![2, 2]), ck).unwrap();
    let cs = FheBoolArray::try_encrypt((&q[..], vec![2, 2]), ck).unwrap();
    let clear_cs = ClearArray::new(q.to_vec(), vec![2, 2]);
    let decrypt = |x: FheBoolArray| FheDecrypt::<Vec<bool>>::decrypt(&x, ck);
    assert_eq!(decrypt(&bs & &cs), [true, false, false, false]);
    assert_eq!(decrypt(&bs | &clear_cs), [true, true, true, false]);
    assert_eq!(decrypt(bs.clone() ^ cs), [false, true, true, false]);
    assert_eq!(decrypt(!bs), [false, true, false, true]);
}

#[test]
fn slices_of_slices_mutable_slices_and_three_axes() {
    let ck = setup();
    // A 2 x 3 x 4 array of 0 ..= 23.
    let values: Vec<u8> = (0..24).collect();
    let xs = FheUint8Array::try_encrypt((&values[..], vec![2, 3, 4]), ck).unwrap();
    let block = xs.slice(&[1..2, 1..3, 1..3]);
    assert_eq!(block.shape(), &[1, 2, 2]);
    assert_eq!(FheDecrypt::<Vec<u8>>::decrypt(&block, ck), [17, 18, 21, 22]);
    let row: FheUint8Slice<'_> = block.slice(&[0..1, 1..2, 0..2]);
    assert_eq!(FheDecrypt::<Vec<u8>>::decrypt(&row, ck), [21, 22]);
    // A slice plus a slice of another part of the same array.
    let other = xs.slice(&[0..1, 0..2, 0..2]);
    let sum: Vec<u8> = (&block + &other).decrypt(ck);
    assert_eq!(sum, [17, 19, 25, 27]);
    assert_eq!(block.clone().into_owned().shape(), &[1, 2, 2]);
    assert_eq!(FheDecrypt::<u8>::decrypt(&block.sum(), ck), 78);

    // Overwrite a column through a mutable slice, then reshape the array.
    let mut ys = xs.clone();
    let sevens: Vec<FheUint8> = (0..6).map(|_| FheUint8::encrypt(7u8, ck)).collect();
    let mut column = ys.slice_mut(&[0..2, 0..3, 3..4]);
    assert_eq!(column.shape(), &[2, 3, 1]);
    for (x, seven) in column.iter_mut().zip(sevens) {
        *x = seven;
    }
    ys.reshape(vec![6, 4]).unwrap();
    let last: Vec<u8> = ys.slice(&[0..6, 3..4]).decrypt(ck);
    assert_eq!(last, [7; 6]);
    let first: Vec<u8> = ys.slice(&[4..=4, 0..=3]).decrypt(ck);
    assert_eq!(first, [16, 17, 18, 7]);
}

#[test]
fn sums_containment_and_dot_products() {
    let ck = setup();
    let values = [3u8, 14, 15, 92, 65];
    let xs = FheUint8Array::try_encrypt(&values[..], ck).unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&xs.sum(), ck), 189);
    let elements: Vec<FheUint8> = xs.iter().cloned().collect();
    for (probe, want) in [(92u8, true), (16, false), (3, true)] {
        let probe = FheUint8::encrypt(probe, ck);
        assert_eq!(fhe_array_contains(&elements, &probe).decrypt(ck), want);
        assert_eq!(xs.try_contains(&probe).unwrap().decrypt(ck), want);
    }
    assert!(!fhe_array_contains(&elements[..0], &elements[0]).decrypt(ck));
    assert!(fhe_array_contains(&elements[..1], &elements[0]).decrypt(ck));
    let bits: Vec<FheBool> = [true, true, false]
        .iter()
        .map(|&b| FheBool::encrypt(b, ck))
        .collect();
    let dot: FheUint8 = FheSliceDotProduct::dot_product(&bits, &[200u8, 100, 7]);
    assert_eq!(FheDecrypt::<u8>::decrypt(&dot, ck), 44);
}

#[test]
fn shapes_ranges_and_keys_that_do_not_fit_are_refused() {
    let ck = setup();
    let xs = FheUint8Array::try_encrypt((&[1u8, 2, 3, 4, 5, 6][..], vec![2, 3]), ck).unwrap();
    let flat = FheUint8Array::try_encrypt(&[1u8, 2, 3, 4, 5, 6][..], ck).unwrap();
    // Elementwise operands of different shapes (same number of elements).
    let err = xs.try_add(&flat).unwrap_err();
    assert!(err.to_string().contains("[2, 3] and [6]"), "{err}");
    assert!(xs
        .try_bitand(ClearArray::new(vec![1u8; 6], vec![3, 2]))
        .is_err());
    let message = panic_message(|| drop(&xs + &flat));
    assert!(message.contains("different shapes"), "{message}");
    // Shapes that do not hold the values, ranges out of the shape.
    assert!(FheUint8Array::try_encrypt((&[1u8, 2, 3][..], vec![2, 2]), ck).is_err());
    assert!(FheUint8Array::try_encrypt(&[1000u16][..], ck).is_err());
    assert!(ClearArray::try_new(vec![1u8, 2, 3], vec![2, 2]).is_err());
    assert!(xs.try_slice(&[0..=1]).is_err());
    assert!(xs.get_slice(&[0..2, 2..4]).is_none());
    let message = panic_message(|| drop(xs.slice(&[0..3, 0..1])));
    assert!(message.contains("out of an axis of length 2"), "{message}");

    // Values of another key, and no server key at all.
    let (other_ck, _) = generate_keys(
        ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .unwrap(),
    );
    let foreign = FheUint8Array::try_encrypt((&[1u8; 6][..], vec![2, 3]), &other_ck).unwrap();
    assert!(matches!(
        xs.try_add(&foreign),
        Err(Error::KeyMismatch { .. })
    ));
    assert!(matches!(foreign.try_not(), Err(Error::KeyMismatch { .. })));
    assert!(matches!(
        FheTryDecrypt::<Vec<u8>>::try_decrypt(&foreign, ck),
        Err(Error::KeyMismatch { .. })
    ));
    unset_server_key();
    assert_eq!(xs.try_add(&xs).unwrap_err(), Error::NoServerKey);
}

#[test]
fn an_elementwise_add_takes_the_bootstrap_layers_of_one_add() {
    // The default (secure) parameters, a small case.
    let (ck, key) = counting_setup();
    let a = [1u8, 100, 200, 255, 17, 42];
    let b = [2u8, 100, 100, 1, 0, 13];
    let xs = FheUint8Array::try_encrypt((&a[..], vec![2, 3]), ck).unwrap();
    let ys = FheUint8Array::try_encrypt((&b[..], vec![2, 3]), ck).unwrap();
    let start = key.stats();
    let one = &xs.slice(&[0..1, 0..1]) + &ys.slice(&[0..1, 0..1]);
    let after_one = key.stats();
    let all = &xs + &ys;
    let after_all = key.stats();
    let (one_pbs, one_layers) = (
        after_one.bootstraps - start.bootstraps,
        after_one.bootstrap_layers - start.bootstrap_layers,
    );
    let (all_pbs, all_layers) = (
        after_all.bootstraps - after_one.bootstraps,
        after_all.bootstrap_layers - after_one.bootstrap_layers,
    );
    println!(
        "FheUint8 add: 1 element {one_pbs} bootstraps in {one_layers} layers, \
         {} elements {all_pbs} bootstraps in {all_layers} layers",
        a.len()
    );
    assert!(one_pbs > 0);
    assert_eq!(all_pbs, a.len() as u64 * one_pbs);
    assert_eq!(all_layers, one_layers);
    assert_eq!(after_all.circuits - after_one.circuits, 1);
    let want: Vec<u8> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
    assert_eq!(FheDecrypt::<Vec<u8>>::decrypt(&all, ck), want);
    assert_eq!(FheDecrypt::<Vec<u8>>::decrypt(&one, ck), [3]);
}
