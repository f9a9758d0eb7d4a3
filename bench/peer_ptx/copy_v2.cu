
#ifdef __CUDACC_RTC__
  #include <cuda/std/cstdint>
  using cuda::std::uint8_t;
  using cuda::std::uint16_t;
  using cuda::std::uint32_t;
  using cuda::std::uint64_t;
  using cuda::std::int8_t;
  using cuda::std::int16_t;
  using cuda::std::int32_t;
  using cuda::std::int64_t;

  #include <cuda/std/type_traits>
  namespace std {
    using cuda::std::is_same;
    using cuda::std::is_same_v;
    using cuda::std::is_integral;
    using cuda::std::is_signed;
    using cuda::std::is_unsigned;
    using cuda::std::is_floating_point;
    using cuda::std::enable_if;
    using cuda::std::conditional;
  }

  // NVRTC uses asm/volatile instead of __asm__/__volatile__ (gcc extension).
  #ifndef __asm__
  #define __asm__ asm
  #endif
  #ifndef __volatile__
  #define __volatile__ volatile
  #endif
#else
  #include <cstdint>
  #include <type_traits>
  #include <cuda.h>
#endif

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 700)
#define __shfl_sync(mask, var, lane, width) \
        __shfl((var), (lane), (width))

#define __shfl_down_sync(mask, var, offset, width) \
        __shfl_down((var), (offset), (width))

#define __shfl_up_sync(mask, var, offset, width) \
        __shfl_up((var), (offset), (width))
#endif

#if (((__CUDACC_VER_MAJOR__ == 11) && (__CUDACC_VER_MINOR__ >= 4)) || \
     (__CUDACC_VER_MAJOR__ > 11))
#define TVM_ENABLE_L2_PREFETCH 1
#else
#define TVM_ENABLE_L2_PREFETCH 0
#endif

#ifdef _WIN32
  using uint = unsigned int;
  using uchar = unsigned char;
  using ushort = unsigned short;
  using int64_t = long long;
  using uint64_t = unsigned long long;
#else
  #define uint unsigned int
  #define uchar unsigned char
  #define ushort unsigned short
#endif
__forceinline__ __device__ void tvm_builtin_ptx_st_vec_global_v4_b32_f32(const void* __addr, float __value0, float __value1, float __value2, float __value3) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" :  : "l"(__addr), "f"(__value0), "f"(__value1), "f"(__value2), "f"(__value3) : "memory");
}
__forceinline__ __device__ void tvm_builtin_ptx_ld_vec_global_v4_b32_f32(float& __d0, float& __d1, float& __d2, float& __d3, const void* __addr) {
  asm volatile("ld.global.v4.b32 {%0, %1, %2, %3}, [%4];" : "=f"(__d0), "=f"(__d1), "=f"(__d2), "=f"(__d3) : "l"(__addr) : "memory");
}
extern "C" __global__ void __launch_bounds__(256) copy_v2_kernel(float* __restrict__ A_ptr, float* __restrict__ B_ptr, int nb);
extern "C" __global__ void __launch_bounds__(256) copy_v2_kernel(float* __restrict__ A_ptr, float* __restrict__ B_ptr, int nb) {
  int warp_id_in_cta = __shfl_sync((uint)4294967295, (((int)threadIdx.x) >> 5), 0, 32);
  int bx = ((int)blockIdx.x);
  alignas(64) float Rg_ptr[8];
  int group_warpid = warp_id_in_cta;
  int group_laneid = (((int)threadIdx.x) & 31);
  tvm_builtin_ptx_ld_vec_global_v4_b32_f32(Rg_ptr[0], Rg_ptr[1], Rg_ptr[2], Rg_ptr[3], (&(A_ptr[(((((warp_id_in_cta >> 3) * 2048) + (((int)blockIdx.x) * 2048)) + ((warp_id_in_cta & 7) * 128)) + ((((int)threadIdx.x) & 31) * 4))])));
  tvm_builtin_ptx_ld_vec_global_v4_b32_f32(Rg_ptr[4], Rg_ptr[5], Rg_ptr[6], Rg_ptr[7], (&(A_ptr[((((((warp_id_in_cta >> 3) * 2048) + (((int)blockIdx.x) * 2048)) + ((warp_id_in_cta & 7) * 128)) + ((((int)threadIdx.x) & 31) * 4)) + 1024)])));
  int group_warpid_1 = warp_id_in_cta;
  int group_laneid_1 = (((int)threadIdx.x) & 31);
  tvm_builtin_ptx_st_vec_global_v4_b32_f32((&(B_ptr[(((((warp_id_in_cta >> 3) * 2048) + (((int)blockIdx.x) * 2048)) + ((warp_id_in_cta & 7) * 128)) + ((((int)threadIdx.x) & 31) * 4))])), Rg_ptr[0], Rg_ptr[1], Rg_ptr[2], Rg_ptr[3]);
  tvm_builtin_ptx_st_vec_global_v4_b32_f32((&(B_ptr[((((((warp_id_in_cta >> 3) * 2048) + (((int)blockIdx.x) * 2048)) + ((warp_id_in_cta & 7) * 128)) + ((((int)threadIdx.x) & 31) * 4)) + 1024)])), Rg_ptr[4], Rg_ptr[5], Rg_ptr[6], Rg_ptr[7]);
}

