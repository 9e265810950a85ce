//! The shape of an array and where its elements sit in memory: row-major strides,
//! the sub-ranges a slice keeps, and the order elements are visited in.

use crate::error::{Error, Result};
use std::ops::{Bound, Range, RangeBounds};

/// The shape of an array (or of a slice of one) and the strides of its elements.
///
/// An owned array is contiguous: its last axis has stride 1 and each earlier axis
/// the product of the lengths after it. A slice keeps the strides of the array it
/// views, and its elements start at the first element of its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dims {
    shape: Vec<usize>,
    strides: Vec<usize>,
}

impl Dims {
    /// The row-major dimensions of `shape`.
    pub(crate) fn contiguous(shape: Vec<usize>) -> Self {
        let mut strides = vec![1usize; shape.len()];
        for axis in (1..shape.len()).rev() {
            strides[axis - 1] = strides[axis].saturating_mul(shape[axis]);
        }
        Self { shape, strides }
    }

    /// The row-major dimensions of `shape`; `Err` unless they hold `len` elements.
    pub(crate) fn for_elements(shape: Vec<usize>, len: usize) -> Result<Self> {
        match element_count(&shape) {
            Some(count) if count == len => Ok(Self::contiguous(shape)),
            _ => Err(Error::InvalidParameter(format!(
                "an array of shape {shape:?} cannot hold {len} elements"
            ))),
        }
    }

    /// The length of each axis.
    pub(crate) fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The number of elements (1 for zero axes).
    pub(crate) fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// The dimensions of the sub-array `ranges` (one per axis, each within its axis)
    /// and the span of underlying elements it covers, from its first element to its
    /// last (an empty span for an empty sub-array). `Err` if a range is out of its
    /// axis or the number of ranges is not the number of axes.
    pub(crate) fn slice<R: RangeBounds<usize>>(
        &self,
        ranges: &[R],
    ) -> Result<(Self, Range<usize>)> {
        if ranges.len() != self.shape.len() {
            return Err(Error::InvalidParameter(format!(
                "{} ranges to slice an array of {} axes (shape {:?})",
                ranges.len(),
                self.shape.len(),
                self.shape
            )));
        }
        let mut shape = Vec::with_capacity(ranges.len());
        let (mut first, mut last) = (0, 0);
        for ((range, &len), &stride) in ranges.iter().zip(&self.shape).zip(&self.strides) {
            let range = within(range, len).ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "the range {} is out of an axis of length {len} (shape {:?})",
                    show(range),
                    self.shape
                ))
            })?;
            shape.push(range.len());
            first += range.start * stride;
            last += range.end.saturating_sub(1) * stride;
        }
        let dims = Self {
            shape,
            strides: self.strides.clone(),
        };
        let span = if dims.len() == 0 {
            0..0
        } else {
            first..last + 1
        };
        Ok((dims, span))
    }

    /// The position of each element in its span, in row-major order.
    pub(crate) fn offsets(&self) -> Offsets<'_> {
        Offsets {
            dims: self,
            index: vec![0; self.shape.len()],
            left: self.len(),
        }
    }
}

/// The number of elements of `shape`; `None` if the product of its non-zero axes
/// overflows, even when an axis of length 0 empties it: strides and slice offsets
/// are products of the axes, so every one of them must fit.
fn element_count(shape: &[usize]) -> Option<usize> {
    shape
        .iter()
        .try_fold(1usize, |n, &len| n.checked_mul(len.max(1)))?;
    Some(shape.iter().product())
}

/// `range` as `start..end` within `0..len`, `None` if it reaches out of it or ends
/// before it starts.
fn within(range: &impl RangeBounds<usize>, len: usize) -> Option<Range<usize>> {
    let start = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s.checked_add(1)?,
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&e) => e.checked_add(1)?,
        Bound::Excluded(&e) => e,
        Bound::Unbounded => len,
    };
    (start <= end && end <= len).then_some(start..end)
}

/// `range` as Rust writes it (`2..4`, `..=3`, `..`).
fn show(range: &impl RangeBounds<usize>) -> String {
    let start = match range.start_bound() {
        Bound::Included(s) => s.to_string(),
        Bound::Excluded(s) => format!("{s} (excluded)"),
        Bound::Unbounded => String::new(),
    };
    let end = match range.end_bound() {
        Bound::Included(e) => format!("={e}"),
        Bound::Excluded(e) => e.to_string(),
        Bound::Unbounded => String::new(),
    };
    format!("{start}..{end}")
}

/// The positions of a [`Dims`]'s elements in their span, row-major.
pub(crate) struct Offsets<'a> {
    dims: &'a Dims,
    /// The index of the next element, one entry per axis.
    index: Vec<usize>,
    /// How many elements are left.
    left: usize,
}

impl Iterator for Offsets<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let offset = self
            .index
            .iter()
            .zip(&self.dims.strides)
            .map(|(i, stride)| i * stride)
            .sum();
        // The next index: the last axis moves fastest.
        for axis in (0..self.index.len()).rev() {
            self.index[axis] += 1;
            if self.index[axis] < self.dims.shape[axis] {
                break;
            }
            self.index[axis] = 0;
        }
        Some(offset)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Offsets<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_2d_slice_keeps_the_strides_and_visits_rows_in_order() {
        let dims = Dims::contiguous(vec![4, 4]);
        assert_eq!(
            dims.offsets().collect::<Vec<_>>(),
            (0..16).collect::<Vec<_>>()
        );
        let (sub, span) = dims.slice(&[2..4, 2..4]).unwrap();
        assert_eq!((sub.shape(), span.clone()), (&[2, 2][..], 10..16));
        assert_eq!(sub.offsets().collect::<Vec<_>>(), [0, 1, 4, 5]);
        // Slicing a slice composes.
        let (sub2, span2) = sub.slice(&[1..=1, 0..=1]).unwrap();
        assert_eq!((sub2.shape(), span2), (&[1, 2][..], 4..6));
    }

    #[test]
    fn out_of_range_slices_and_wrong_shapes_are_errors() {
        let dims = Dims::contiguous(vec![2, 3]);
        assert!(dims.slice(&[0..=1]).is_err());
        assert!(dims.slice(&[0..3, 0..1]).is_err());
        let reversed = (Bound::Included(4), Bound::Excluded(3));
        assert!(dims
            .slice(&[(Bound::Included(1), Bound::Excluded(2)), reversed])
            .is_err());
        let err = dims.slice(&[0..=2, 0..=1]).unwrap_err().to_string();
        assert!(
            err.contains("the range 0..=2 is out of an axis of length 2"),
            "{err}"
        );
        let (empty, span) = dims.slice(&[1..1, 0..3]).unwrap();
        assert_eq!((empty.len(), span), (0, 0..0));
        assert_eq!(empty.offsets().count(), 0);
        assert!(Dims::for_elements(vec![2, 3], 5).is_err());
        assert!(Dims::for_elements(vec![usize::MAX, 3], 5).is_err());
        assert_eq!(
            Dims::for_elements(vec![], 1)
                .unwrap()
                .offsets()
                .collect::<Vec<_>>(),
            [0]
        );
    }
}
