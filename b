attrs set sample 10ms
scheme rm 1
scheme add stat
