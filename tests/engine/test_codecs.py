"""Block codecs: round trips and the on-disk framing of Hadoop's codec streams."""

from __future__ import annotations

import os
import struct
import zlib

import pytest

from hsim.engine.codecs import ALGORITHM_NAMES, ALGORITHM_ORDINALS, compressor, decompressor

CODECS = ["NONE", "SNAPPY", "LZ4", "GZ", "ZSTD"]


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("size", [1, 1000, 65536, 600_000])
def test_round_trip(codec, size):
    data = (os.urandom(64) + b"abcdefgh" * 8) * (size // 128 + 1)
    data = data[:size]
    packed = compressor(codec)(data)
    assert decompressor(codec)(packed, len(data)) == data


def test_compressible_data_shrinks_except_with_none():
    data = b"row-000001/cf:qualifier/1000/Put/value-value-value" * 1000
    sizes = {c: len(compressor(c)(data)) for c in CODECS}
    assert sizes["NONE"] == len(data)
    for c in ("SNAPPY", "LZ4", "GZ"):
        assert sizes[c] < len(data) / 5


@pytest.mark.parametrize("codec", ["SNAPPY", "LZ4"])
def test_block_compressor_stream_framing(codec):
    """[total raw length][compressed length][bytes] for inputs below the codec's max input."""
    data = b"x" * 5000
    packed = compressor(codec)(data)
    raw_len, clen = struct.unpack_from(">ii", packed)
    assert raw_len == 5000
    assert clen == len(packed) - 8


@pytest.mark.parametrize("codec", ["SNAPPY", "LZ4"])
def test_large_inputs_are_split_into_chunks(codec):
    data = os.urandom(600_000)
    packed = compressor(codec)(data)
    assert struct.unpack_from(">i", packed)[0] == 600_000
    pos, chunks = 4, 0
    while pos < len(packed):
        pos += 4 + struct.unpack_from(">i", packed, pos)[0]
        chunks += 1
    assert pos == len(packed)
    assert chunks == 3  # 256 KiB buffers minus the codec overhead: 2 full chunks + 1


def test_gz_is_a_gzip_stream():
    packed = compressor("GZ")(b"hello" * 100)
    assert packed[:2] == b"\x1f\x8b"
    assert zlib.decompress(packed, 31) == b"hello" * 100


def test_algorithm_ordinals_match_hbase():
    assert ALGORITHM_ORDINALS == {"LZO": 0, "GZ": 1, "NONE": 2, "SNAPPY": 3, "LZ4": 4,
                                  "BZIP2": 5, "ZSTD": 6}  # Compression.Algorithm
    assert ALGORITHM_NAMES[3] == "SNAPPY"


def test_a_truncated_block_is_refused():
    packed = compressor("SNAPPY")(b"abc" * 1000)
    with pytest.raises(ValueError):
        decompressor("SNAPPY")(packed, 3001)


@pytest.mark.parametrize("codec", ["SNAPPY", "LZ4"])
def test_an_empty_block_is_the_zero_length_alone(codec):
    """BlockCompressorStream.finish: the raw length (0), and no chunk, as the compressor gives
    no output for no input. A chunk-framed empty block (hsim's files before this) still reads."""
    assert compressor(codec)(b"") == b"\x00\x00\x00\x00"
    assert decompressor(codec)(b"\x00\x00\x00\x00", 0) == b""
    raw = {"SNAPPY": b"\x00", "LZ4": b"\x00"}[codec]  # each library's compressed empty input
    old = struct.pack(">ii", 0, len(raw)) + raw
    assert decompressor(codec)(old, 0) == b""


def test_zstd_is_one_frame_per_block_without_framing_or_content_size():
    """Hadoop's ZStandardCodec: a CompressorStream (no length prefix) over the native streaming
    compressor: a zstd frame (magic 28 B5 2F FD) whose header carries no content size."""
    data = b"row-000001/cf:q/1000/Put/value" * 500
    packed = compressor("ZSTD")(data)
    assert packed[:4] == b"\x28\xb5\x2f\xfd"
    frame_header_descriptor = packed[4]
    assert frame_header_descriptor >> 6 == 0 and not frame_header_descriptor & 0x20
    assert not frame_header_descriptor & 0x04  # no checksum
    assert decompressor("ZSTD")(packed, len(data)) == data
    assert ALGORITHM_ORDINALS["ZSTD"] == 6 and ALGORITHM_NAMES[6] == "ZSTD"


def test_a_codec_hsim_does_not_read_is_refused_with_one_line():
    with pytest.raises(ValueError, match="compression BZIP2 is not one hsim reads"):
        decompressor("BZIP2")
