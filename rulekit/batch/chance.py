"""The batch engine's chance, bit for bit the scalar engine's: SHA-512 of the same seed strings
("{seed}:{deal}" for a deal, "{seed}:{number}:{seat}" for a bot, "{seed}:{deal}:setup" for a
restock), a 512-bit number read in the factorial base for a deal (engine.deal.deal_order) and
spent as mixed-radix digits for a bot (agents.chance.Chance).

A 512-bit number is 16 limbs of 32 bits, lowest first, in an int64 array: a digit is one pass
of long division by a divisor below 2**31, so every intermediate fits an int64.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit, types

from rulekit.batch.bits import popcount

# compiled without numba's reference counting (nothing here allocates: a call costs no atomic
# counts), small helpers inlined by LLVM (as rulekit/batch/tables.py does)
ENTRY: dict[str, Any] = {"cache": True, "_nrt": False}
INLINE: dict[str, Any] = {**ENTRY, "forceinline": True}
Fn = TypeVar("Fn", bound=Callable[..., Any])


def entry(f: Fn) -> Fn:
    """A function compiled on its own (called from Python, or from other kernels)."""
    return cast(Fn, by_types(njit(**ENTRY)(f)))


def inline(f: Fn) -> Fn:
    """A small helper, compiled into its callers."""
    return cast(Fn, by_types(njit(**INLINE)(f)))


def apart(f: Fn) -> Fn:
    """A function compiled on its own that LLVM never inlines into its callers: a large one
    called from many places (the condition VM, the scoring stage's factors). numba links
    every function a kernel calls into the kernel's own module, where LLVM inlines it at each
    call site however large it is, so such a function would be compiled again, whole, at each
    place it is called from, in every kernel that reaches it: minutes of compile."""
    # (forceinline said: numba would otherwise inherit it from the first caller that compiles
    # it, an inline helper such as the ledger's `pay`, and LLVM must then inline it everywhere)
    return cast(Fn, never_inlined(by_types(njit(**ENTRY, forceinline=False)(f))))


def never_inlined(dispatcher: Any) -> Any:
    """Each compiled version of the function is marked `noinline` in the module its callers
    link (a version loaded from the cache is not linked again: nothing to mark)."""
    add = dispatcher.add_overload

    def add_overload(cres: Any) -> None:
        try:
            module = cres.library._get_module_for_linking()
            function = module.get_function(cres.fndesc.llvm_func_name)
        except (RuntimeError, NameError, AttributeError):  # (numba: from the cache, unlinkable)
            pass
        else:
            function.add_function_attribute("noinline")
        add(cres)

    dispatcher.add_overload = add_overload
    return dispatcher


def by_types(dispatcher: Any) -> Any:
    """A numba function compiled once per argument types, not once per constant: numba types a
    constant argument (a reason code, True, -1) as a literal and compiles the function again
    for each, every copy with all it calls linked in and optimised again; a helper inlined by
    LLVM sees its constants all the same. (Called from Python, numba already compiles for the
    plain types first.)"""
    typed = dispatcher.get_call_template
    unliteral: Callable[[Any], Any] = types.unliteral  # (numba is not typed)

    def get_call_template(args: Any, kws: Any) -> Any:
        return typed(tuple(unliteral(a) for a in args), kws)

    dispatcher.get_call_template = get_call_template
    return dispatcher


LIMBS = 16
# a bot's number is refilled (the hash of its block) when it is below 2**64: limbs 2.. zero
LOW_LIMBS = 2

_K = np.array(
    [
        0x428A2F98D728AE22, 0x7137449123EF65CD, 0xB5C0FBCFEC4D3B2F, 0xE9B5DBA58189DBBC,
        0x3956C25BF348B538, 0x59F111F1B605D019, 0x923F82A4AF194F9B, 0xAB1C5ED5DA6D8118,
        0xD807AA98A3030242, 0x12835B0145706FBE, 0x243185BE4EE4B28C, 0x550C7DC3D5FFB4E2,
        0x72BE5D74F27B896F, 0x80DEB1FE3B1696B1, 0x9BDC06A725C71235, 0xC19BF174CF692694,
        0xE49B69C19EF14AD2, 0xEFBE4786384F25E3, 0x0FC19DC68B8CD5B5, 0x240CA1CC77AC9C65,
        0x2DE92C6F592B0275, 0x4A7484AA6EA6E483, 0x5CB0A9DCBD41FBD4, 0x76F988DA831153B5,
        0x983E5152EE66DFAB, 0xA831C66D2DB43210, 0xB00327C898FB213F, 0xBF597FC7BEEF0EE4,
        0xC6E00BF33DA88FC2, 0xD5A79147930AA725, 0x06CA6351E003826F, 0x142929670A0E6E70,
        0x27B70A8546D22FFC, 0x2E1B21385C26C926, 0x4D2C6DFC5AC42AED, 0x53380D139D95B3DF,
        0x650A73548BAF63DE, 0x766A0ABB3C77B2A8, 0x81C2C92E47EDAEE6, 0x92722C851482353B,
        0xA2BFE8A14CF10364, 0xA81A664BBC423001, 0xC24B8B70D0F89791, 0xC76C51A30654BE30,
        0xD192E819D6EF5218, 0xD69906245565A910, 0xF40E35855771202A, 0x106AA07032BBD1B8,
        0x19A4C116B8D2D0C8, 0x1E376C085141AB53, 0x2748774CDF8EEB99, 0x34B0BCB5E19B48A8,
        0x391C0CB3C5C95A63, 0x4ED8AA4AE3418ACB, 0x5B9CCA4F7763E373, 0x682E6FF3D6B2B8A3,
        0x748F82EE5DEFB2FC, 0x78A5636F43172F60, 0x84C87814A1F0AB72, 0x8CC702081A6439EC,
        0x90BEFFFA23631E28, 0xA4506CEBDE82BDE9, 0xBEF9A3F7B2C67915, 0xC67178F2E372532B,
        0xCA273ECEEA26619C, 0xD186B8C721C0C207, 0xEADA7DD6CDE0EB1E, 0xF57D4F7FEE6ED178,
        0x06F067AA72176FBA, 0x0A637DC5A2C898A6, 0x113F9804BEF90DAE, 0x1B710B35131C471B,
        0x28DB77F523047D84, 0x32CAAB7B40C72493, 0x3C9EBE0A15C9BEBC, 0x431D67C49C100D4C,
        0x4CC5D4BECB3E42B6, 0x597F299CFC657E2A, 0x5FCB6FAB3AD6FAEC, 0x6C44198C4A475817,
    ],
    dtype=np.uint64,
)  # fmt: skip
_H0 = np.array(
    [
        0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
        0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179,
    ],
    dtype=np.uint64,
)  # fmt: skip


_K64 = _K.view(np.int64)  # the same bits as int64: the kernel's arithmetic wraps the same
_H64 = _H0.view(np.int64)


@inline
def _srl(x: int, n: int) -> int:
    """x >> n, logical (int64's >> is arithmetic)."""
    return (x >> n) & ((1 << (64 - n)) - 1)


@inline
def _rotr(x: int, n: int) -> int:
    return _srl(x, n) | (x << (64 - n))


@entry
def sha512_limbs(msg: np.ndarray, length: int, out: np.ndarray, w: np.ndarray) -> None:
    """The SHA-512 of msg[:length] (bytes as int64, length <= 111: one block), read as a
    big-endian number, into out's 16 limbs of 32 bits, lowest first; w: 80 words of scratch.
    The words are int64 with wrapping arithmetic and logical shifts: the bits of uint64's."""
    for t in range(16):  # the one padded block, as 16 big-endian words
        w[t] = 0
    for i in range(length):
        w[i >> 3] |= msg[i] << (56 - 8 * (i & 7))
    w[length >> 3] |= 0x80 << (56 - 8 * (length & 7))
    w[15] = length * 8  # the length in bits (length <= 111: the last word holds it)
    for t in range(16, 80):
        a = w[t - 15]
        b = w[t - 2]
        s0 = _rotr(a, 1) ^ _rotr(a, 8) ^ _srl(a, 7)
        s1 = _rotr(b, 19) ^ _rotr(b, 61) ^ _srl(b, 6)
        w[t] = w[t - 16] + s0 + w[t - 7] + s1
    a, b, c, d = _H64[0], _H64[1], _H64[2], _H64[3]
    e, f, g, h = _H64[4], _H64[5], _H64[6], _H64[7]
    for t in range(80):
        s1 = _rotr(e, 14) ^ _rotr(e, 18) ^ _rotr(e, 41)
        ch = (e & f) ^ (~e & g)
        t1 = h + s1 + ch + _K64[t] + w[t]
        s0 = _rotr(a, 28) ^ _rotr(a, 34) ^ _rotr(a, 39)
        maj = (a & b) ^ (a & c) ^ (b & c)
        t2 = s0 + maj
        h = g
        g = f
        f = e
        e = d + t1
        d = c
        c = b
        b = a
        a = t1 + t2
    hs = (a, b, c, d, e, f, g, h)
    for i in range(8):
        v = hs[i] + _H64[i]
        # word i holds bits 512 - 64 (i + 1) .. of the number: limbs 15 - 2i (high), 14 - 2i
        out[15 - 2 * i] = _srl(v, 32)
        out[14 - 2 * i] = v & 0xFFFFFFFF


@inline
def limbs_bytes(x: np.ndarray, out: np.ndarray) -> None:
    """A number's 64 big-endian bytes (a bot's block, hashed again to refill it)."""
    for i in range(16):
        v = x[15 - i]
        out[4 * i] = (v >> 24) & 255
        out[4 * i + 1] = (v >> 16) & 255
        out[4 * i + 2] = (v >> 8) & 255
        out[4 * i + 3] = v & 255


@inline
def write_int(buf: np.ndarray, at: int, value: int) -> int:
    """str(value) as ASCII at buf[at:]; the position after it."""
    if value < 0:
        buf[at] = 45  # '-'
        at += 1
        value = -value
    digits = 1
    t = value
    while t >= 10:
        t //= 10
        digits += 1
    for k in range(digits - 1, -1, -1):
        buf[at + k] = 48 + value % 10
        value //= 10
    return at + digits


@inline
def divmod_limbs(x: np.ndarray, n: int) -> int:
    """x //= n in place (n < 2**31); the remainder. Long division from the highest limb that
    is not zero (the number shrinks as it is spent); each digit's quotient estimated with a
    float reciprocal (a multiplication, not a 64-bit division: several times faster), then
    corrected exactly without a branch: the estimate is off by one at most (cur < n * 2**32 is
    exact as a float when n < 2**21; otherwise its rounding, under 2**10, is under n / 2**11)."""
    top = LIMBS - 1
    while top > 0 and x[top] == 0:
        top -= 1
    inv = 1.0 / n
    rem = 0
    for i in range(top, -1, -1):
        cur = (rem << 32) | x[i]
        q = int(cur * inv)
        r = cur - q * n
        low = r >> 63  # -1 when the estimate was one too high: corrected without a branch
        q += low
        r += n & low
        high = ~((r - n) >> 63)  # -1 when it was one too low
        q -= high
        r -= n & high
        x[i] = q
        rem = r
    return rem


@inline
def select(mask: int, d: int) -> int:
    """The index of the d-th set bit of mask (0: the lowest), mask holding more than d: a
    binary search by the popcount of the lower half, the same six steps for any mask."""
    base = 0
    for width in (32, 16, 8, 4, 2, 1):
        c = popcount(mask & ((1 << width) - 1))
        above = ((c - d - 1) >> 63) & 1  # 1 when the d-th is not in the lower half
        d -= c * above
        mask >>= width * above
        base += width * above
    return base


@entry
def permutation(x: np.ndarray, n: int, out: np.ndarray) -> None:
    """engine.deal.deal_order: the permutation of range(n) (n <= 63) picked by x's
    factorial-base digits, lowest first (x is spent): digit d takes the d-th of the items left,
    in order (the d-th set bit of a mask of them). Divisors are taken in groups whose product
    is below 2**31, so the big number is divided once per group."""
    left = (1 << n) - 1
    k = n
    picked = 0
    while k > 0:
        product = 1
        first = k
        while k > 0 and product * k < 1 << 31:
            product *= k
            k -= 1
        r = divmod_limbs(x, product)
        for divisor in range(first, k, -1):
            q = r // divisor
            b = select(left, r - q * divisor)
            r = q
            out[picked] = b
            picked += 1
            left &= ~(1 << b)


@entry
def below(x: np.ndarray, scratch: np.ndarray, n: int) -> int:
    """agents.chance.Chance.below on a bot's number x (limbs, then its block's): refilled with
    the hash of its block when below 2**64, then a uniform digit in range(n). scratch: 144
    slots (the block's bytes, then sha512's schedule)."""
    low = True
    for i in range(LOW_LIMBS, LIMBS):
        if x[i] != 0:
            low = False
            break
    if low:
        limbs_bytes(x[LIMBS : 2 * LIMBS], scratch)  # the block: kept after the number
        sha512_limbs(scratch, 64, x, scratch[64:])
        for i in range(LIMBS):  # (a slice copy within one array would allocate)
            x[LIMBS + i] = x[i]
    return divmod_limbs(x, n)


@entry
def shuffle(x: np.ndarray, scratch: np.ndarray, items: np.ndarray, n: int) -> None:
    """items[:n] shuffled by Fisher and Yates from the last place down, place i trading with
    Chance.below(i + 1) of the number x (the rule-weighing bot's worlds, engine.observation):
    the same digits, each refill where Chance refills, but a group of draws whose divisors'
    product is below 2**31 spends one long division (as permutation does) wherever the number
    is too large for a refill to fall inside the group (at least 2**96: it stays above 2**65)."""
    i = n - 1
    while i > 0:
        top = LIMBS - 1
        while top > 0 and x[top] == 0:
            top -= 1
        if top < 3:  # near a refill: one draw as Chance.below
            j = below(x, scratch, i + 1)
            t = items[i]
            items[i] = items[j]
            items[j] = t
            i -= 1
            continue
        first = i
        product = 1
        while i > 0 and product * (i + 1) < 1 << 31:
            product *= i + 1
            i -= 1
        r = divmod_limbs(x, product)
        for k in range(first, i, -1):
            q = r // (k + 1)
            j = r - q * (k + 1)
            r = q
            t = items[k]
            items[k] = items[j]
            items[j] = t
