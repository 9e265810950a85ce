//! Encrypted N-dimensional arrays, as TFHE-rs's `tfhe::array`: [`FheUint32Array`]
//! and its siblings for every width, slices of them ([`FheArrayBase::slice`]), clear
//! arrays ([`ClearArray`]) and elementwise operators between them.
//!
//! ```
//! # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
//! # let config = gpufhe::ConfigBuilder::default()
//! #     .with_insecure_custom_parameters(TEST_PARAMS)
//! #     .unwrap();
//! use gpufhe::prelude::*;
//! use gpufhe::{generate_keys, set_server_key, ClearArray, CpuFheUint8Array};
//! let (client_key, server_key) = generate_keys(config);
//! set_server_key(server_key);
//! // [[0, 1, 2],
//! //  [3, 4, 5]]
//! let clear: Vec<u8> = (0..6).collect();
//! let xs = CpuFheUint8Array::try_encrypt((clear.as_slice(), vec![2, 3]), &client_key).unwrap();
//! assert_eq!((xs.num_dim(), xs.shape()), (2, &[2, 3][..]));
//! // The last two columns, [[1, 2], [4, 5]], plus a clear [[10, 20], [30, 40]].
//! let corner = xs.slice(&[0..2, 1..3]);
//! let sum = &corner + &ClearArray::new(vec![10u8, 20, 30, 40], vec![2, 2]);
//! let values: Vec<u8> = sum.decrypt(&client_key);
//! assert_eq!(values, [11, 22, 34, 45]);
//! ```
//!
//! # Types
//!
//! Every array is an [`FheArrayBase`]: a container of elements and a shape. An
//! *array* owns its elements (`Vec`), a *slice* borrows those of a sub-array of
//! another one (`&[T]`, strided like the array: taking a slice copies nothing), a
//! *mutable slice* borrows them mutably. The aliases name them as TFHE-rs does,
//! per element type: [`FheUint32Array`], [`FheUint32Slice`], [`FheUint32SliceMut`],
//! the same with `Cpu` in front ([`CpuFheUint32Array`], ...) and, in this module,
//! with `Gpu` in front ([`GpuFheUint32Array`], ...), for every width of
//! [`FheUint`](crate::FheUint), [`FheInt`](crate::FheInt) and for
//! [`FheBool`](crate::FheBool); [`FheUintArray<Id>`] and the like are generic over
//! the width. The `Cpu`, `Gpu` and plain names are **one type**: a gpufhe value lives
//! wherever the thread's server key computes (the CPU, or the key's GPU, see
//! [`crate::set_server_key`]), so the same array runs on either.
//!
//! # Operations
//!
//! `+ - *` (integers), `/ %` (unsigned integers) and `& | ^ !` (all) work elementwise
//! between two arrays or slices of the same element type and shape, or an array and a
//! [`ClearArray`] of its clear type, owned or borrowed on either side; they return an
//! owned array of the same shape. Each runs as **one batch** over all the elements
//! ([`crate::ServerKey::run_batch`], the same code for the CPU and the GPU): a circuit
//! per worker share, whose bootstraps of the same depth run in one backend step, so
//! `n` additions take as many sequential bootstrap layers as one. On the CPU that is
//! one circuit; a GPU key shares the elements among its stream workers, whose
//! circuits run at once. The `try_` methods ([`FheArrayBase::try_add`], ...) return
//! `Err` for shapes that differ, no server key on this thread or elements of another
//! key; the operators panic with that error's message. [`FheArrayBase::sum`] adds all elements in one circuit,
//! [`fhe_array_contains`] tells whether a slice holds a value.

mod dims;
mod element;
mod ops;
mod slicing;
pub(super) mod types;

use crate::error::{Error, Result};
use crate::high_level::internals::expect_op;
use crate::high_level::keys::client::ClientKey;
use crate::high_level::traits::{FheDecrypt, FheEncrypt, FheTryDecrypt, FheTryEncrypt};
use dims::Dims;
use std::marker::PhantomData;
use std::ops::RangeBounds;

pub use element::{ArrayElement, ArrayInteger, ArrayUnsigned};

pub use ops::{fhe_array_contains, ArrayRhs, FheSliceDotProduct};
pub use slicing::{IOwnedArray, Slicing, SlicingMut};
pub use types::gpu::*;
pub use types::*;

/// The kind of an array whose elements are encrypted (the default of
/// [`FheArrayBase`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Encrypted;

/// The kind of an array of clear values ([`ClearArray`]), TFHE-rs's name for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClearId;

/// An N-dimensional array: elements held by the container `C` (a `Vec`, or a
/// borrowed slice of another array's) in row-major order, and a shape. `K` is
/// [`Encrypted`] for arrays of encrypted values and [`ClearId`] for clear ones
/// ([`ClearArray`]). Use the aliases ([`FheUint32Array`], [`FheUint32Slice`], ...).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, ConfigBuilder, FheBoolArray};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let bits = [true, false, false, true];
/// let xs = FheBoolArray::try_encrypt((&bits[..], vec![2, 2]), &client_key).unwrap();
/// let column = xs.slice(&[0..2, 1..2]); // the second column
/// assert_eq!(column.shape(), &[2, 1]);
/// let clear: Vec<bool> = column.decrypt(&client_key);
/// assert_eq!(clear, [false, true]);
/// // Three values do not make a 2 x 2 array.
/// assert!(FheBoolArray::try_encrypt((&bits[..3], vec![2, 2]), &client_key).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct FheArrayBase<C, K = Encrypted> {
    elems: C,
    dims: Dims,
    kind: PhantomData<K>,
}

pub(crate) mod sealed {
    /// Restricts the container traits to the crate's containers.
    pub trait Container {}
}

/// The containers of arrays: `Vec<T>` (an owned array), `&[T]` (a slice) and
/// `&mut [T]` (a mutable slice). Sealed.
pub trait ArrayContainer: sealed::Container {
    /// The type of the elements.
    type Element;
    /// The elements of the span the array covers.
    fn elements(&self) -> &[Self::Element];
}

/// The containers of arrays whose elements can be changed: `Vec<T>` and `&mut [T]`.
pub trait ArrayContainerMut: ArrayContainer {
    /// The elements of the span the array covers.
    fn elements_mut(&mut self) -> &mut [Self::Element];
}

impl<T> sealed::Container for Vec<T> {}
impl<T> sealed::Container for &[T] {}
impl<T> sealed::Container for &mut [T] {}

impl<T> ArrayContainer for Vec<T> {
    type Element = T;
    fn elements(&self) -> &[T] {
        self
    }
}

impl<T> ArrayContainer for &[T] {
    type Element = T;
    fn elements(&self) -> &[T] {
        self
    }
}

impl<T> ArrayContainer for &mut [T] {
    type Element = T;
    fn elements(&self) -> &[T] {
        self
    }
}

impl<T> ArrayContainerMut for Vec<T> {
    fn elements_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T> ArrayContainerMut for &mut [T] {
    fn elements_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T, K> FheArrayBase<Vec<T>, K> {
    /// The array of shape `shape` whose elements, in row-major order, are `data`;
    /// `Err` unless the shape holds exactly `data.len()` elements.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::try_new(vec![1u8, 2, 3, 4, 5, 6], vec![2, 3])?;
    /// assert_eq!(clear.shape(), &[2, 3]);
    /// assert!(ClearArray::try_new(vec![1u8, 2, 3], vec![2, 2]).is_err()); // 3 values, 4 places
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_new(data: Vec<T>, shape: Vec<usize>) -> Result<Self> {
        let dims = Dims::for_elements(shape, data.len())?;
        Ok(Self::from_parts(data, dims))
    }

    /// The array of shape `shape` whose elements, in row-major order, are `data`
    /// (TFHE-rs's constructor, used for [`ClearArray`]).
    ///
    /// # Panics
    ///
    /// Unless the shape holds exactly `data.len()` elements.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::new(vec![1u32, 2, 3, 4, 5, 6], vec![3, 2]);
    /// assert_eq!(clear.shape(), &[3, 2]);
    /// assert_eq!(clear.slice(&[2..3, 0..2]).iter().copied().collect::<Vec<_>>(), [5, 6]);
    /// ```
    #[track_caller]
    pub fn new(data: Vec<T>, shape: Vec<usize>) -> Self {
        expect_op(Self::try_new(data, shape), "array new")
    }

    /// Gives the array the shape `new_shape` (the elements keep their row-major
    /// order); `Err`, leaving it as it was, unless the shape holds as many elements.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let mut clear = ClearArray::new((0..6u8).collect(), vec![6]);
    /// clear.reshape(vec![2, 3]).unwrap();
    /// assert_eq!(clear.shape(), &[2, 3]);
    /// assert!(clear.reshape(vec![4, 2]).is_err());
    /// ```
    pub fn reshape(&mut self, new_shape: Vec<usize>) -> Result<()> {
        self.dims = Dims::for_elements(new_shape, self.elems.len())?;
        Ok(())
    }

    /// The elements, in row-major order.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::new(vec![1u8, 2, 3, 4], vec![2, 2]);
    /// assert_eq!(clear.into_vec(), [1, 2, 3, 4]);
    /// ```
    pub fn into_vec(self) -> Vec<T> {
        self.elems
    }
}

impl<C, K> FheArrayBase<C, K> {
    pub(crate) fn from_parts(elems: C, dims: Dims) -> Self {
        Self {
            elems,
            dims,
            kind: PhantomData,
        }
    }

    /// The number of axes.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::new(vec![0u8; 24], vec![2, 3, 4]);
    /// assert_eq!(clear.num_dim(), 3);
    /// ```
    pub fn num_dim(&self) -> usize {
        self.dims.shape().len()
    }

    /// The length of each axis.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::new(vec![0u16; 6], vec![3, 2]);
    /// assert_eq!(clear.shape(), &[3, 2]);
    /// assert_eq!(clear.slice(&[1..3, 0..1]).shape(), &[2, 1]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.dims.shape()
    }

    /// The number of elements (the product of the shape).
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::new(vec![0u8; 12], vec![3, 4]);
    /// assert_eq!(clear.len(), 12);
    /// assert_eq!(clear.slice(&[0..2, 1..3]).len(), 4);
    /// ```
    pub fn len(&self) -> usize {
        self.dims.len()
    }

    /// Whether it has no element.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// assert!(ClearArray::<u8>::new(vec![], vec![0, 3]).is_empty());
    /// assert!(!ClearArray::new(vec![1u8], vec![1, 1]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<C: ArrayContainer, K> FheArrayBase<C, K> {
    /// The elements, in row-major order.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// // [[1, 2, 3],
    /// //  [4, 5, 6]]
    /// let clear = ClearArray::new(vec![1u8, 2, 3, 4, 5, 6], vec![2, 3]);
    /// let column: Vec<u8> = clear.slice(&[0..2, 2..3]).iter().copied().collect();
    /// assert_eq!(column, [3, 6]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &C::Element> + '_ {
        let elements = self.elems.elements();
        self.dims.offsets().map(move |i| &elements[i])
    }

    /// The sub-array `ranges`, one range per axis, all of one type (`&[2..4, 0..3]`,
    /// `&[1..=2, 0..=0]`), as a slice that borrows the elements; `Err` if a range is
    /// out of its axis or there are not as many ranges as axes.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::new((0..12u8).collect(), vec![3, 4]);
    /// let corner = clear.try_slice(&[1..3, 2..4])?;
    /// assert_eq!(corner.iter().copied().collect::<Vec<_>>(), [6, 7, 10, 11]);
    /// assert!(clear.try_slice(&[0..4, 0..1]).is_err()); // past the first axis
    /// assert!(clear.try_slice(&[0..1]).is_err()); // one range for two axes
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_slice<R>(&self, ranges: &[R]) -> Result<FheArrayBase<&[C::Element], K>>
    where
        R: Clone + RangeBounds<usize>,
    {
        let (dims, span) = self.dims.slice(ranges)?;
        Ok(FheArrayBase::from_parts(&self.elems.elements()[span], dims))
    }

    /// [`FheArrayBase::try_slice`], `None` where it fails (TFHE-rs's form).
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::new((0..6u8).collect(), vec![2, 3]);
    /// let row = clear.get_slice(&[1..2, 0..3]).unwrap();
    /// assert_eq!(row.iter().copied().collect::<Vec<_>>(), [3, 4, 5]);
    /// assert!(clear.get_slice(&[0..2, 2..4]).is_none());
    /// ```
    pub fn get_slice<R>(&self, ranges: &[R]) -> Option<FheArrayBase<&[C::Element], K>>
    where
        R: Clone + RangeBounds<usize>,
    {
        self.try_slice(ranges).ok()
    }

    /// The sub-array `ranges` (one range per axis), as a slice that borrows the
    /// elements: `xs.slice(&[2..4, 2..4])`.
    ///
    /// # Panics
    ///
    /// If [`FheArrayBase::try_slice`] fails.
    #[track_caller]
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::new((0..9u8).collect(), vec![3, 3]);
    /// let centre = clear.slice(&[1..=1, 1..=1]);
    /// assert_eq!(centre.iter().copied().collect::<Vec<_>>(), [4]);
    /// ```
    pub fn slice<R>(&self, ranges: &[R]) -> FheArrayBase<&[C::Element], K>
    where
        R: Clone + RangeBounds<usize>,
    {
        expect_op(self.try_slice(ranges), "slice")
    }

    /// The whole array as a slice.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::new(vec![1u8, 2, 3, 4], vec![2, 2]);
    /// let view = clear.as_slice(); // borrows, copies nothing
    /// assert_eq!(view.shape(), clear.shape());
    /// assert_eq!(view.iter().copied().collect::<Vec<_>>(), [1, 2, 3, 4]);
    /// ```
    pub fn as_slice(&self) -> FheArrayBase<&[C::Element], K> {
        FheArrayBase::from_parts(self.elems.elements(), self.dims.clone())
    }

    /// An owned array of the same elements (cloned) and shape.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let clear = ClearArray::new((0..6u8).collect(), vec![2, 3]);
    /// let column = clear.slice(&[0..2, 1..2]).into_owned();
    /// assert_eq!(column.shape(), &[2, 1]);
    /// assert_eq!(column.into_vec(), [1, 4]);
    /// ```
    pub fn into_owned(self) -> FheArrayBase<Vec<C::Element>, K>
    where
        C::Element: Clone,
    {
        let elems = self.iter().cloned().collect();
        FheArrayBase::from_parts(elems, Dims::contiguous(self.shape().to_vec()))
    }
}

impl<C: ArrayContainerMut, K> FheArrayBase<C, K> {
    /// The elements, in row-major order, to change in place.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let mut clear = ClearArray::new(vec![0u8; 9], vec![3, 3]);
    /// // Set the centre and the right column.
    /// clear.slice_mut(&[1..2, 1..2]).iter_mut().for_each(|x| *x = 5);
    /// clear.slice_mut(&[0..3, 2..3]).iter_mut().for_each(|x| *x += 1);
    /// assert_eq!(clear.into_vec(), [0, 0, 1, 0, 5, 1, 0, 0, 1]);
    /// ```
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut C::Element> + '_ {
        // The offsets of a view rise strictly: pick them out of its span in order.
        let mut offsets = self.dims.offsets().peekable();
        self.elems
            .elements_mut()
            .iter_mut()
            .enumerate()
            .filter_map(move |(i, x)| offsets.next_if_eq(&i).map(|_| x))
    }

    /// The sub-array `ranges` as a mutable slice; `Err` as
    /// [`FheArrayBase::try_slice`].
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let mut clear = ClearArray::new(vec![0u8; 4], vec![2, 2]);
    /// clear.try_slice_mut(&[0..2, 0..1])?.iter_mut().for_each(|x| *x = 7);
    /// assert!(clear.try_slice_mut(&[0..3, 0..1]).is_err());
    /// assert_eq!(clear.into_vec(), [7, 0, 7, 0]);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_slice_mut<R>(&mut self, ranges: &[R]) -> Result<FheArrayBase<&mut [C::Element], K>>
    where
        R: Clone + RangeBounds<usize>,
    {
        let (dims, span) = self.dims.slice(ranges)?;
        Ok(FheArrayBase::from_parts(
            &mut self.elems.elements_mut()[span],
            dims,
        ))
    }

    /// [`FheArrayBase::try_slice_mut`], `None` where it fails.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let mut clear = ClearArray::new(vec![0u8; 4], vec![2, 2]);
    /// if let Some(mut row) = clear.get_slice_mut(&[1..2, 0..2]) {
    ///     row.iter_mut().for_each(|x| *x = 1);
    /// }
    /// assert!(clear.get_slice_mut(&[2..3, 0..2]).is_none());
    /// assert_eq!(clear.into_vec(), [0, 0, 1, 1]);
    /// ```
    pub fn get_slice_mut<R>(&mut self, ranges: &[R]) -> Option<FheArrayBase<&mut [C::Element], K>>
    where
        R: Clone + RangeBounds<usize>,
    {
        self.try_slice_mut(ranges).ok()
    }

    /// The sub-array `ranges` as a mutable slice.
    ///
    /// # Panics
    ///
    /// If [`FheArrayBase::try_slice_mut`] fails.
    #[track_caller]
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let mut clear = ClearArray::new(vec![1u8; 6], vec![2, 3]);
    /// clear.slice_mut(&[0..2, 2..3]).iter_mut().for_each(|x| *x = 9);
    /// assert_eq!(clear.into_vec(), [1, 1, 9, 1, 1, 9]);
    /// ```
    pub fn slice_mut<R>(&mut self, ranges: &[R]) -> FheArrayBase<&mut [C::Element], K>
    where
        R: Clone + RangeBounds<usize>,
    {
        expect_op(self.try_slice_mut(ranges), "slice_mut")
    }

    /// The whole array as a mutable slice.
    ///
    /// ```
    /// use gpufhe::ClearArray;
    /// let mut clear = ClearArray::new(vec![1u8, 2, 3, 4], vec![2, 2]);
    /// clear.as_slice_mut().iter_mut().for_each(|x| *x *= 10);
    /// assert_eq!(clear.into_vec(), [10, 20, 30, 40]);
    /// ```
    pub fn as_slice_mut(&mut self) -> FheArrayBase<&mut [C::Element], K> {
        FheArrayBase::from_parts(self.elems.elements_mut(), self.dims.clone())
    }
}

/// Encrypts each value of `clears` (row-major) with `encrypt`, as an array of shape
/// `shape`; `Err` if the shape does not hold them all or an encryption fails.
fn encrypt_array<T, Clear: Copy>(
    clears: &[Clear],
    shape: Vec<usize>,
    encrypt: impl Fn(Clear) -> Result<T>,
) -> Result<FheArrayBase<Vec<T>>> {
    let dims = Dims::for_elements(shape, clears.len())?;
    let elems = clears.iter().map(|&v| encrypt(v)).collect::<Result<_>>()?;
    Ok(FheArrayBase::from_parts(elems, dims))
}

impl<'a, T, Clear> FheTryEncrypt<(&'a [Clear], Vec<usize>), ClientKey> for FheArrayBase<Vec<T>>
where
    T: ArrayElement + FheTryEncrypt<Clear, ClientKey>,
    Clear: Copy,
{
    /// The values (row-major) as an array of the given shape; `Err` if the shape
    /// does not hold exactly the values, or a value does not fit the element type.
    fn try_encrypt((clears, shape): (&'a [Clear], Vec<usize>), key: &ClientKey) -> Result<Self> {
        encrypt_array(clears, shape, |v| T::try_encrypt(v, key))
    }
}

impl<'a, T, Clear> FheTryEncrypt<&'a [Clear], ClientKey> for FheArrayBase<Vec<T>>
where
    T: ArrayElement + FheTryEncrypt<Clear, ClientKey>,
    Clear: Copy,
{
    /// The values as a one-axis array; `Err` if a value does not fit the element
    /// type.
    fn try_encrypt(clears: &'a [Clear], key: &ClientKey) -> Result<Self> {
        Self::try_encrypt((clears, vec![clears.len()]), key)
    }
}

impl<'a, T, Clear> FheEncrypt<(&'a [Clear], Vec<usize>), ClientKey> for FheArrayBase<Vec<T>>
where
    T: ArrayElement + FheEncrypt<Clear, ClientKey>,
    Clear: Copy,
{
    /// The values (row-major, each wrapped to the element type like an `as` cast) as
    /// an array of the given shape.
    ///
    /// # Panics
    ///
    /// If the shape does not hold exactly the values.
    #[track_caller]
    fn encrypt((clears, shape): (&'a [Clear], Vec<usize>), key: &ClientKey) -> Self {
        expect_op(
            encrypt_array(clears, shape, |v| Ok(T::encrypt(v, key))),
            "encrypt",
        )
    }
}

impl<'a, T, Clear> FheEncrypt<&'a [Clear], ClientKey> for FheArrayBase<Vec<T>>
where
    T: ArrayElement + FheEncrypt<Clear, ClientKey>,
    Clear: Copy,
{
    /// The values (each wrapped to the element type) as a one-axis array.
    fn encrypt(clears: &'a [Clear], key: &ClientKey) -> Self {
        Self::encrypt((clears, vec![clears.len()]), key)
    }
}

impl<C, Clear> FheTryDecrypt<Vec<Clear>> for FheArrayBase<C>
where
    C: ArrayContainer,
    C::Element: ArrayElement + FheTryDecrypt<Clear>,
{
    /// The values in row-major order; `Err` if an element belongs to another client
    /// key or does not fit in `Clear`.
    fn try_decrypt(&self, key: &ClientKey) -> Result<Vec<Clear>> {
        self.iter()
            .map(|x| FheTryDecrypt::<Clear>::try_decrypt(x, key))
            .collect()
    }
}

impl<C, Clear> FheDecrypt<Vec<Clear>> for FheArrayBase<C>
where
    C: ArrayContainer,
    C::Element: ArrayElement + FheDecrypt<Clear>,
{
    /// The values in row-major order, each wrapped to `Clear` like an `as` cast.
    ///
    /// # Panics
    ///
    /// If an element belongs to another client key.
    fn decrypt(&self, key: &ClientKey) -> Vec<Clear> {
        self.iter()
            .map(|x| FheDecrypt::<Clear>::decrypt(x, key))
            .collect()
    }
}

/// `Err` unless an operation's operands have the same shape.
fn check_same_shape(operation: &str, lhs: &[usize], rhs: &[usize]) -> Result<()> {
    if lhs == rhs {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "elementwise {operation} of arrays of different shapes: {lhs:?} and {rhs:?}"
        )))
    }
}
