kernel_1 = {

	"kernel_name"			: "branchy",
	"num_registers"			: 22,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 1,
	"block_size"			: 256,
	"cuda_stream_id"		: 0
}

app_kernels_id = [1]