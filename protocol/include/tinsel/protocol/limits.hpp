#pragma once
// Protocol limits: each has a name, a default, and a command-line flag (server/config.cpp).
#include <cstddef>

namespace tinsel::protocol {

struct limits {
  std::size_t max_frame_bytes = 8 * 1024;  // larger frames are answered with frame_too_large
  std::size_t max_name_chars = 32;         // display name, in Unicode code points
  std::size_t max_chat_chars = 500;        // one chat message, in Unicode code points
  std::size_t max_id_chars = 64;           // a request id given as a string
  // Arrays and objects nested in one frame, the message itself counting 1; deeper frames are
  // answered with frame_too_deep. The deepest message of version 1 is an Unterm Baum action (5).
  std::size_t max_depth = 32;
};

inline constexpr int protocol_version = 1;
inline constexpr std::size_t room_code_length = 6;
// No look-alikes: no 0/O, 1/I/L. 31 symbols, so a code carries log2(31^6) ≈ 29.7 bits.
inline constexpr char room_code_alphabet[] = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

}  // namespace tinsel::protocol
