"""AudioSpectrogram and Mfcc, the audio feature custom ops of LiteRT's resolver."""
import numpy as np
from flatbuffers import flexbuffers
import zoo


def spectrogram(samples, channels, window, stride, squared, mfcc=None):
    m = zoo.Model()
    g = m.graph()
    x = g.input("audio", np.float32, [samples, channels])
    frames = 1 + (samples - window) // stride
    bins = 1 + (1 << (window - 1).bit_length()) // 2
    s = g.tensor("spectrogram", np.float32, [channels, frames, bins])
    g.op(None, [x], [s], custom="AudioSpectrogram",
         custom_options=flexbuffers.Dumps({"window_size": window, "stride": stride, "magnitude_squared": squared}))
    if mfcc is None:
        g.output(s)
        return m
    rate, lower, upper, bands, coefficients = mfcc
    r = g.const("rate", np.array(rate, np.int32))
    y = g.tensor("mfcc", np.float32, [channels, frames, coefficients])
    g.op(None, [s, r], [y], custom="Mfcc",
         custom_options=flexbuffers.Dumps({"upper_frequency_limit": upper, "lower_frequency_limit": lower,
                                           "filterbank_channel_count": bands, "dct_coefficient_count": coefficients}))
    g.output(y)
    return m


def cases():
    rs = np.random.RandomState(51)
    t = np.arange(1000) / 8000.0
    tone = (0.5 * np.sin(2 * np.pi * 440 * t) + 0.1 * rs.randn(1000)).astype(np.float32)
    stereo = np.stack([tone, rs.randn(1000).astype(np.float32) * 0.3], 1)
    return [
        zoo.Case("opzoo_audio_spectrogram_squared", spectrogram(1000, 2, 256, 128, True), [stereo]),
        zoo.Case("opzoo_audio_spectrogram_magnitude_window_200", spectrogram(1000, 1, 200, 75, False), [tone[:, None]],
                 notes="a window that is not a power of two is zero-padded to 256"),
        zoo.Case("opzoo_mfcc", spectrogram(1000, 2, 256, 128, True, (8000, 20, 4000, 40, 13)), [stereo]),
        zoo.Case("opzoo_mfcc_narrow_band", spectrogram(1000, 1, 240, 80, True, (8000, 300, 3400, 20, 10)), [tone[:, None]]),
    ]
