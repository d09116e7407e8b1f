# Named as the environments' outputs, which forward them unchanged (the region comes from the
# environment's own aws_region variable).

output "s3_bucket" {
  description = "Artifact bucket name (S3_BUCKET)."
  value       = module.artifact_bucket.bucket_name
}

output "api_role_arn" {
  description = "IRSA role of ServiceAccount jacobian-api (API_ROLE_ARN)."
  value       = module.workload_identity.api_role_arn
}

output "runner_role_arn" {
  description = "IRSA role of ServiceAccount jacobian-runner (RUNNER_ROLE_ARN)."
  value       = module.workload_identity.runner_role_arn
}

output "checker_role_arn" {
  description = "IRSA role of ServiceAccount jacobian-checker (CHECKER_ROLE_ARN)."
  value       = module.workload_identity.checker_role_arn
}

output "redis_host" {
  description = "Redis primary endpoint host (REDIS_HOST)."
  value       = module.redis.primary_endpoint_host
}

output "redis_port" {
  description = "Redis TLS port (REDIS_PORT)."
  value       = module.redis.port
}

output "redis_url_secret_arn" {
  description = "Secrets Manager secret holding REDIS_URL (rediss://:TOKEN@host:port) for the Kubernetes Secret jacobian-redis."
  value       = module.redis.redis_url_secret_arn
}
