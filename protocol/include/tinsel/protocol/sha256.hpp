#pragma once
// SHA-256 through OpenSSL's libcrypto: seat token hashes in the journal, state hashes, and the
// dice-seed commitment of game records.
#include <string>
#include <string_view>

namespace tinsel::protocol {

std::string sha256_hex(std::string_view data);  // 64 lower-case hex digits

}  // namespace tinsel::protocol
