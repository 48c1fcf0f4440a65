#pragma once
// Secrets and codes from the kernel's CSPRNG (getrandom). Engine dice are seeded from here too.
#include <cstdint>
#include <string>

namespace tinsel::server {

std::uint64_t secure_u64();
std::string secure_hex(std::size_t bytes);  // 2 hex digits per byte
std::string new_room_code();                // protocol::room_code_length symbols of the alphabet

}  // namespace tinsel::server
