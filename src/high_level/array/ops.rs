//! The operations of encrypted arrays: elementwise `+ - * / % & | ^ !` (each one
//! batch over all the elements), sums and [`fhe_array_contains`].

use super::element::sealed::{Element, ElementOp, ElementRhs};
use super::element::{ArrayElement, ArrayInteger, ArrayUnsigned};
use super::{check_same_shape, ArrayContainer, ClearId, Dims, Encrypted, FheArrayBase};
use crate::error::Result;
use crate::high_level::batch::BatchOutput;
use crate::high_level::booleans::base::FheBool;
use crate::high_level::global_state::current_server_key;
use crate::high_level::integers::select::contains;
use crate::high_level::internals::expect_op;
use crate::high_level::internals::storage::Input;
use crate::high_level::{FheInt, FheIntId, FheUint, FheUintId};
use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Not, Rem, Sub};

pub(crate) mod sealed {
    use super::{Element, ElementRhs};

    /// What an elementwise operation reads of its right operand.
    pub trait Operand<T: Element> {
        /// The shape of the operand.
        fn operand_shape(&self) -> &[usize];
        /// The elements, in row-major order.
        fn operand_elements(&self) -> Vec<ElementRhs<'_, T>>;
    }
}

/// The right operand of an elementwise operation on an array of `T`, owned or
/// borrowed: another array or slice of `T`, or a clear one ([`super::ClearArray`]) of
/// its clear type (`u32` for [`FheUint32`](crate::FheUint32)). Sealed.
pub trait ArrayRhs<T: ArrayElement>: sealed::Operand<T> {}

impl<T: ArrayElement, R: sealed::Operand<T>> ArrayRhs<T> for R {}

impl<T, C> sealed::Operand<T> for FheArrayBase<C, Encrypted>
where
    T: ArrayElement,
    C: ArrayContainer<Element = T>,
{
    fn operand_shape(&self) -> &[usize] {
        self.shape()
    }

    fn operand_elements(&self) -> Vec<ElementRhs<'_, T>> {
        self.iter().map(ElementRhs::Encrypted).collect()
    }
}

impl<T, C> sealed::Operand<T> for FheArrayBase<C, ClearId>
where
    T: ArrayElement,
    C: ArrayContainer<Element = T::Clear>,
{
    fn operand_shape(&self) -> &[usize] {
        self.shape()
    }

    fn operand_elements(&self) -> Vec<ElementRhs<'_, T>> {
        self.iter().map(|&k| ElementRhs::Clear(k)).collect()
    }
}

impl<T: ArrayElement, R: sealed::Operand<T>> sealed::Operand<T> for &R {
    fn operand_shape(&self) -> &[usize] {
        (**self).operand_shape()
    }

    fn operand_elements(&self) -> Vec<ElementRhs<'_, T>> {
        (**self).operand_elements()
    }
}

/// `f` on every item as one batch of the thread's server key (a circuit per worker
/// share, each layer of bootstraps of its items in one backend step); `Err` if there
/// is no server key or an item fails.
fn batch<I, T: BatchOutput>(items: &[I], f: impl Fn(&I) -> Result<T>) -> Result<Vec<T>> {
    current_server_key()?
        .run_batch(items, f)?
        .into_iter()
        .collect()
}

impl<T: ArrayElement, C: ArrayContainer<Element = T>> FheArrayBase<C, Encrypted> {
    /// `self[i] op rhs[i]` for every element, as one batch; `Err` if the shapes
    /// differ or an element's operation fails.
    fn elementwise(&self, op: ElementOp, rhs: impl ArrayRhs<T>) -> Result<FheArrayBase<Vec<T>>> {
        check_same_shape(op.name(), self.shape(), rhs.operand_shape())?;
        let pairs: Vec<(&T, ElementRhs<'_, T>)> = self.iter().zip(rhs.operand_elements()).collect();
        let out = batch(&pairs, |&(l, r)| l.element_op(op, r))?;
        Ok(FheArrayBase::from_parts(
            out,
            Dims::contiguous(self.shape().to_vec()),
        ))
    }

    /// `!self` elementwise (no bootstrap), as one batch; `Err` if there is no
    /// server key on this thread or an element belongs to another key.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, FheUint8Array};
    /// let (client_key, server_key) = generate_keys(config);
    /// let xs = FheUint8Array::try_encrypt(&[0u8, 15, 255][..], &client_key)?;
    /// assert!(xs.try_not().is_err()); // no server key on this thread yet
    /// set_server_key(server_key);
    /// let clear: Vec<u8> = xs.try_not()?.decrypt(&client_key);
    /// assert_eq!(clear, [255, 240, 0]);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_not(&self) -> Result<FheArrayBase<Vec<T>>> {
        let elements: Vec<&T> = self.iter().collect();
        let out = batch(&elements, |x| x.element_not())?;
        Ok(FheArrayBase::from_parts(
            out,
            Dims::contiguous(self.shape().to_vec()),
        ))
    }

    /// The wrapping sum of all the elements, as one circuit (a trivial zero for an
    /// empty array); `Err` if there is no server key on this thread or an element
    /// belongs to another key.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, FheUint8Array};
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let xs = FheUint8Array::try_encrypt((&[100u8, 100, 50, 7][..], vec![2, 2]), &client_key)?;
    /// let total: u8 = xs.try_sum()?.decrypt(&client_key);
    /// assert_eq!(total, 1); // 257, wrapped
    /// let first_row: u8 = xs.slice(&[0..1, 0..2]).try_sum()?.decrypt(&client_key);
    /// assert_eq!(first_row, 200);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_sum(&self) -> Result<T>
    where
        T: ArrayInteger,
    {
        T::element_sum(&self.iter().collect::<Vec<_>>())
    }

    /// The wrapping sum of all the elements, as one circuit (a gpufhe addition to
    /// TFHE-rs's arrays).
    ///
    /// # Panics
    ///
    /// If [`FheArrayBase::try_sum`] fails.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, FheInt8Array};
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let xs = FheInt8Array::try_encrypt((&[1i8, -2, 3, -4][..], vec![2, 2]), &client_key).unwrap();
    /// let column: i8 = xs.slice(&[0..2, 1..2]).sum().decrypt(&client_key);
    /// assert_eq!(column, -6);
    /// ```
    #[track_caller]
    pub fn sum(&self) -> T
    where
        T: ArrayInteger,
    {
        expect_op(self.try_sum(), "sum")
    }

    /// Whether an element equals `value`, as one circuit (see
    /// [`fhe_array_contains`]); `Err` if there is no server key on this thread or
    /// a value belongs to another key.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, FheUint16, FheUint16Array};
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let xs = FheUint16Array::try_encrypt(&[3u16, 1000, 7][..], &client_key)?;
    /// let found = xs.try_contains(&FheUint16::encrypt(1000u16, &client_key))?;
    /// assert!(found.decrypt(&client_key));
    /// let found = xs.try_contains(&FheUint16::encrypt(8u16, &client_key))?;
    /// assert!(!found.decrypt(&client_key));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_contains(&self, value: &T) -> Result<FheBool>
    where
        T: ArrayInteger,
    {
        contains_element(&self.iter().collect::<Vec<_>>(), value)
    }
}

/// Whether some element of `data` equals `value`, as one circuit (see
/// [`contains`]).
fn contains_element<T: ArrayInteger>(data: &[&T], value: &T) -> Result<FheBool> {
    let inputs: Vec<Input<'_>> = data.iter().map(|x| x.element_input().0).collect();
    contains(&inputs, value.element_input().0)
}

/// Whether some element of `data` equals `value` (TFHE-rs's function of the same
/// name), as one circuit.
///
/// # Panics
///
/// If there is no server key on this thread or a value belongs to another key.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{fhe_array_contains, generate_keys, set_server_key, FheUint8};
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let data: Vec<FheUint8> = [3u8, 14, 15].iter().map(|&v| FheUint8::encrypt(v, &client_key)).collect();
/// let found = fhe_array_contains(&data, &FheUint8::encrypt(14u8, &client_key));
/// assert!(found.decrypt(&client_key));
/// assert!(!fhe_array_contains(&data, &FheUint8::encrypt(9u8, &client_key)).decrypt(&client_key));
/// ```
#[track_caller]
pub fn fhe_array_contains<T: ArrayInteger>(data: &[T], value: &T) -> FheBool {
    expect_op(
        contains_element(&data.iter().collect::<Vec<_>>(), value),
        "fhe_array_contains",
    )
}

/// The dot product of a slice of encrypted booleans with a slice of clear values:
/// the sum of the clear values whose boolean is true (TFHE-rs's trait, in
/// [`crate::prelude`]).
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, FheBool, FheUint8};
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let bits: Vec<FheBool> = [true, false, true].iter().map(|&b| FheBool::encrypt(b, &client_key)).collect();
/// let dot: FheUint8 = FheSliceDotProduct::dot_product(&bits, &[2u8, 3, 4]);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&dot, &client_key), 6);
/// ```
pub trait FheSliceDotProduct<Lhs, Rhs> {
    /// `sum of rhs[i] where lhs[i]`, wrapping.
    ///
    /// # Panics
    ///
    /// If the slices differ in length, there is no server key on this thread or a
    /// boolean belongs to another key.
    fn dot_product(lhs: &[Lhs], rhs: &[Rhs]) -> Self;
}

impl<Id: FheUintId> FheSliceDotProduct<FheBool, Id::Clear> for FheUint<Id> {
    #[track_caller]
    fn dot_product(lhs: &[FheBool], rhs: &[Id::Clear]) -> Self {
        FheUint::<Id>::dot_product(lhs, rhs)
    }
}

impl<Id: FheIntId> FheSliceDotProduct<FheBool, Id::Clear> for FheInt<Id> {
    #[track_caller]
    fn dot_product(lhs: &[FheBool], rhs: &[Id::Clear]) -> Self {
        FheInt::<Id>::dot_product(lhs, rhs)
    }
}

/// The `try_` method and the operator `Op` (for owned and borrowed arrays and slices,
/// with any [`ArrayRhs`] right operand) of each elementwise operation `$op` on
/// arrays of `$Bound`.
macro_rules! elementwise_operators {
    ($($(#[$doc:meta])* $try:ident: $Op:ident $method:ident $op:ident, $Bound:ident;)*) => {$(
        impl<T: $Bound, C: ArrayContainer<Element = T>> FheArrayBase<C, Encrypted> {
            $(#[$doc])*
            pub fn $try(&self, rhs: impl ArrayRhs<T>) -> Result<FheArrayBase<Vec<T>>> {
                self.elementwise(ElementOp::$op, rhs)
            }
        }

        impl<T: $Bound, C: ArrayContainer<Element = T>, R: ArrayRhs<T>> $Op<R>
            for &FheArrayBase<C, Encrypted>
        {
            type Output = FheArrayBase<Vec<T>>;
            #[track_caller]
            fn $method(self, rhs: R) -> Self::Output {
                expect_op(self.$try(rhs), stringify!($method))
            }
        }

        impl<T: $Bound, C: ArrayContainer<Element = T>, R: ArrayRhs<T>> $Op<R>
            for FheArrayBase<C, Encrypted>
        {
            type Output = FheArrayBase<Vec<T>>;
            #[track_caller]
            fn $method(self, rhs: R) -> Self::Output {
                (&self).$method(rhs)
            }
        }
    )*};
}

elementwise_operators! {
    /// `self + rhs` elementwise (wrapping), as one batch over all the elements;
    /// `rhs` is an array or slice of the same type, or a [`super::ClearArray`], of the
    /// same shape. `Err` if the shapes differ, there is no server key on this thread
    /// or an element belongs to another key; the operator `+` panics instead.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ClearArray, FheUint8Array};
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key.clone());
    /// let xs = FheUint8Array::try_encrypt(&[1u8, 2, 3, 250][..], &client_key).unwrap();
    /// let ys = FheUint8Array::try_encrypt(&[10u8, 20, 30, 10][..], &client_key).unwrap();
    /// let sum: Vec<u8> = xs.try_add(&ys).unwrap().decrypt(&client_key);
    /// assert_eq!(sum, [11, 22, 33, 4]); // wraps around
    /// assert_eq!(server_key.stats().circuits, 1); // the four additions in one circuit (CPU key)
    /// // A clear array of another shape is refused.
    /// assert!(xs.try_add(&ClearArray::new(vec![1u8, 2], vec![2])).is_err());
    /// ```
    try_add: Add add Add, ArrayInteger;
    /// `self - rhs` elementwise (wrapping); `Err` as [`FheArrayBase::try_add`].
    try_sub: Sub sub Sub, ArrayInteger;
    /// `self * rhs` elementwise (wrapping); `Err` as [`FheArrayBase::try_add`].
    try_mul: Mul mul Mul, ArrayInteger;
    /// `self / rhs` elementwise; `Err` as [`FheArrayBase::try_add`] and for a clear
    /// zero divisor (an encrypted zero gives `MAX`, see [`FheUint::try_div_rem`]).
    try_div: Div div Div, ArrayUnsigned;
    /// `self % rhs` elementwise; `Err` as [`FheArrayBase::try_div`].
    try_rem: Rem rem Rem, ArrayUnsigned;
    /// `self & rhs` elementwise; `Err` as [`FheArrayBase::try_add`].
    try_bitand: BitAnd bitand BitAnd, ArrayElement;
    /// `self | rhs` elementwise; `Err` as [`FheArrayBase::try_add`].
    try_bitor: BitOr bitor BitOr, ArrayElement;
    /// `self ^ rhs` elementwise; `Err` as [`FheArrayBase::try_add`].
    try_bitxor: BitXor bitxor BitXor, ArrayElement;
}

impl<T: ArrayElement, C: ArrayContainer<Element = T>> Not for &FheArrayBase<C, Encrypted> {
    type Output = FheArrayBase<Vec<T>>;
    #[track_caller]
    fn not(self) -> Self::Output {
        expect_op(self.try_not(), "not")
    }
}

impl<T: ArrayElement, C: ArrayContainer<Element = T>> Not for FheArrayBase<C, Encrypted> {
    type Output = FheArrayBase<Vec<T>>;
    #[track_caller]
    fn not(self) -> Self::Output {
        !&self
    }
}
