//! The `array_shapes` target: arrays have no serialized form, so what hostile
//! input reaches is their shapes and slice ranges (as a server computing on
//! arrays a client described would take them). The input is read as numbers: a
//! rank, the axes, a second shape and slice ranges; axes are often 0, small or
//! near `usize::MAX`, so that products overflow. Every call is a `try_` call (or a
//! documented non-panicking one) on trivial values: an `Err` is fine, a panic is a
//! finding, and what was accepted must be consistent (lengths, shapes, values).

use gpufhe::prelude::*;
use gpufhe::{ClearArray, FheUint8, FheUint8Array};

/// Reads numbers out of the input, one byte choosing how each is made.
struct Numbers<'a>(&'a [u8]);

impl Numbers<'_> {
    fn byte(&mut self) -> u8 {
        let (&first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        first
    }

    /// An axis or a bound: small, zero, huge, or any 64-bit value.
    fn number(&mut self) -> usize {
        match self.byte() % 4 {
            0 => usize::from(self.byte() % 5),
            1 => 0,
            2 => usize::MAX - usize::from(self.byte()),
            _ => {
                let bytes: [u8; 8] = std::array::from_fn(|_| self.byte());
                u64::from_le_bytes(bytes) as usize
            }
        }
    }

    fn shape(&mut self) -> Vec<usize> {
        let rank = usize::from(self.byte() % 5);
        (0..rank).map(|_| self.number()).collect()
    }
}

/// The elements a shape holds, when it is small enough to build (at most 64).
fn small_len(shape: &[usize]) -> Option<usize> {
    shape
        .iter()
        .try_fold(1usize, |n, &axis| n.checked_mul(axis))
        .filter(|&n| n <= 64)
}

/// The `array_shapes` target.
pub fn array_shapes(data: &[u8]) {
    let mut numbers = Numbers(data);
    let shape = numbers.shape();
    let other = numbers.shape();
    let ranges: Vec<std::ops::Range<usize>> = (0..usize::from(numbers.byte() % 5))
        .map(|_| numbers.number()..numbers.number())
        .collect();
    // A length that fits the shape when it is small, any small length otherwise.
    let len = small_len(&shape).unwrap_or(usize::from(numbers.byte() % 8));
    let clears: Vec<u8> = (0..len).map(|i| i as u8).collect();

    if let Ok(mut clear) = ClearArray::try_new(clears.clone(), shape.clone()) {
        assert_eq!(clear.len(), len, "an accepted clear array holds its data");
        let _ = clear.try_slice(&ranges);
        let _ = clear.get_slice(&ranges);
        if clear.reshape(other.clone()).is_ok() {
            assert_eq!(clear.shape(), other.as_slice());
        }
    }
    let values: Vec<FheUint8> = clears
        .iter()
        .map(|&c| FheUint8::encrypt_trivial(c))
        .collect();
    let Ok(mut array) = FheUint8Array::try_new(values, shape.clone()) else {
        return;
    };
    assert_eq!(array.len(), len, "an accepted array holds its data");
    if let Ok(slice) = array.try_slice(&ranges) {
        let owned = slice.into_owned();
        assert_eq!(owned.iter().count(), owned.len());
        // Trivial values compute without a server key's bootstraps where they can;
        // either way an operand of another shape is an `Err`, never a panic.
        if let Ok(doubled) = owned.try_add(&owned) {
            assert_eq!(doubled.shape(), owned.shape());
        }
        let _ = owned.try_add(&ClearArray::new(vec![1u8], vec![1]));
    }
    let _ = array.try_slice_mut(&ranges).map(|s| s.len());
    if array.reshape(other.clone()).is_ok() {
        assert_eq!(array.shape(), other.as_slice());
        assert_eq!(array.len(), len);
    }
}
