// hls_stream.h: C-simulation stand-in for the Vitis HLS hls::stream FIFO (API compatible).
// It fails the simulation on a read of an empty stream and on data left unread at the end.
#ifndef FLOWHLS_CSIM_HLS_STREAM_H
#define FLOWHLS_CSIM_HLS_STREAM_H

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>

namespace hls {

template <typename T, int DEPTH = 0>
class stream {
public:
    stream() : name_("stream") {}
    explicit stream(const char *name) : name_(name) {}
    stream(const stream &) = delete;
    stream &operator=(const stream &) = delete;
    ~stream() {
        if (!fifo_.empty()) {
            std::fprintf(stderr, "FAIL: hls::stream '%s': %zu element(s) left unread at the end of the simulation\n",
                         name_.c_str(), fifo_.size());
            std::abort();
        }
    }

    bool empty() const { return fifo_.empty(); }
    bool full() const { return DEPTH > 0 && fifo_.size() >= static_cast<size_t>(DEPTH); }
    size_t size() const { return fifo_.size(); }

    T read() {
        if (fifo_.empty()) {
            std::fprintf(stderr, "FAIL: hls::stream '%s': read from an empty stream\n", name_.c_str());
            std::abort();
        }
        T v = fifo_.front();
        fifo_.pop_front();
        return v;
    }
    void read(T &v) { v = read(); }
    bool read_nb(T &v) {
        if (fifo_.empty()) return false;
        v = read();
        return true;
    }
    void write(const T &v) { fifo_.push_back(v); }
    bool write_nb(const T &v) {
        if (full()) return false;
        write(v);
        return true;
    }
    void operator>>(T &v) { read(v); }
    void operator<<(const T &v) { write(v); }

private:
    std::string name_;
    std::deque<T> fifo_;
};

}  // namespace hls

#endif  // FLOWHLS_CSIM_HLS_STREAM_H
