//! Slicing traits for code generic over arrays (TFHE-rs's names): each method is
//! the [`FheArrayBase`] method of the same name.

use super::{ArrayContainer, ArrayContainerMut, FheArrayBase};
use std::ops::RangeBounds;

/// Arrays that lend slices of their elements.
///
/// ```
/// use gpufhe::array::{ClearArray, Slicing};
/// let xs = ClearArray::new((0..6u8).collect(), vec![2, 3]);
/// let row = Slicing::slice(&xs, &[1..2, 0..3]);
/// assert_eq!(row.shape(), &[1, 3]);
/// assert_eq!(Slicing::as_slice(&xs).shape(), &[2, 3]);
/// ```
pub trait Slicing {
    /// The type of a slice.
    type Slice<'a>
    where
        Self: 'a;

    /// The sub-array `ranges` (one range per axis).
    ///
    /// # Panics
    ///
    /// If a range is out of its axis or the number of ranges is not the number of
    /// axes (see [`FheArrayBase::try_slice`] for the `Result` form).
    fn slice(&self, ranges: &[impl RangeBounds<usize> + Clone]) -> Self::Slice<'_>;

    /// The whole array as a slice.
    fn as_slice(&self) -> Self::Slice<'_>;
}

/// Arrays that lend mutable slices of their elements.
///
/// ```
/// use gpufhe::array::{ClearArray, SlicingMut};
/// let mut xs = ClearArray::new(vec![0u8; 4], vec![2, 2]);
/// SlicingMut::slice_mut(&mut xs, &[0..1, 0..2]).iter_mut().for_each(|x| *x = 7);
/// assert_eq!(xs.into_vec(), [7, 7, 0, 0]);
/// ```
pub trait SlicingMut {
    /// The type of a mutable slice.
    type SliceMut<'a>
    where
        Self: 'a;

    /// The sub-array `ranges` as a mutable slice.
    ///
    /// # Panics
    ///
    /// As [`Slicing::slice`] (see [`FheArrayBase::try_slice_mut`] for the `Result`
    /// form).
    fn slice_mut(&mut self, ranges: &[impl RangeBounds<usize> + Clone]) -> Self::SliceMut<'_>;

    /// The whole array as a mutable slice.
    fn as_slice_mut(&mut self) -> Self::SliceMut<'_>;
}

/// The owned arrays, for bounds in generic code: every `FheArrayBase<Vec<T>, K>`.
pub trait IOwnedArray: Clone + Slicing + SlicingMut {}

impl<C: ArrayContainer, K> Slicing for FheArrayBase<C, K> {
    type Slice<'a>
        = FheArrayBase<&'a [C::Element], K>
    where
        Self: 'a;

    #[track_caller]
    fn slice(&self, ranges: &[impl RangeBounds<usize> + Clone]) -> Self::Slice<'_> {
        FheArrayBase::slice(self, ranges)
    }

    fn as_slice(&self) -> Self::Slice<'_> {
        FheArrayBase::as_slice(self)
    }
}

impl<C: ArrayContainerMut, K> SlicingMut for FheArrayBase<C, K> {
    type SliceMut<'a>
        = FheArrayBase<&'a mut [C::Element], K>
    where
        Self: 'a;

    #[track_caller]
    fn slice_mut(&mut self, ranges: &[impl RangeBounds<usize> + Clone]) -> Self::SliceMut<'_> {
        FheArrayBase::slice_mut(self, ranges)
    }

    fn as_slice_mut(&mut self) -> Self::SliceMut<'_> {
        FheArrayBase::as_slice_mut(self)
    }
}

impl<T: Clone, K: Clone> IOwnedArray for FheArrayBase<Vec<T>, K> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::high_level::array::ClearArray;

    /// A generic user of the traits: a copy of the array, taken after a mutable
    /// view of it was lent.
    fn copy_of<A: IOwnedArray>(xs: &mut A) -> A {
        drop(xs.as_slice_mut());
        xs.clone()
    }

    #[test]
    fn trait_slices_are_the_inherent_ones() {
        let mut xs = ClearArray::new((1..=4u32).collect(), vec![2, 2]);
        SlicingMut::slice_mut(&mut xs, &[0..1, 0..2])
            .iter_mut()
            .for_each(|x| *x *= 2);
        assert_eq!(copy_of(&mut xs).into_vec(), [2, 4, 3, 4]);
        let column = Slicing::slice(&xs, &[0..2, 1..2]);
        assert_eq!(column.iter().copied().collect::<Vec<_>>(), [4, 4]);
        assert_eq!(Slicing::as_slice(&xs).shape(), &[2, 2]);
        assert_eq!(SlicingMut::as_slice_mut(&mut xs).shape(), &[2, 2]);
    }
}
