# What the Kubernetes overlay needs. scripts/terraform-outputs-to-env.mjs turns these into
# terraform-outputs.env (S3_BUCKET, S3_REGION, API_ROLE_ARN, RUNNER_ROLE_ARN, CHECKER_ROLE_ARN,
# REDIS_HOST, REDIS_PORT); redis_url_secret_arn tells the operator where to fetch REDIS_URL from.
# All but s3_region forward the output of the same name of module.jacobian.

output "s3_bucket" {
  description = "Artifact bucket name (S3_BUCKET)."
  value       = module.jacobian.s3_bucket
}

output "s3_region" {
  description = "Region of the artifact bucket (S3_REGION)."
  value       = var.aws_region
}

output "api_role_arn" {
  description = "IRSA role of ServiceAccount jacobian-api (API_ROLE_ARN)."
  value       = module.jacobian.api_role_arn
}

output "runner_role_arn" {
  description = "IRSA role of ServiceAccount jacobian-runner (RUNNER_ROLE_ARN)."
  value       = module.jacobian.runner_role_arn
}

output "checker_role_arn" {
  description = "IRSA role of ServiceAccount jacobian-checker (CHECKER_ROLE_ARN)."
  value       = module.jacobian.checker_role_arn
}

output "redis_host" {
  description = "Redis primary endpoint host (REDIS_HOST)."
  value       = module.jacobian.redis_host
}

output "redis_port" {
  description = "Redis TLS port (REDIS_PORT)."
  value       = module.jacobian.redis_port
}

output "redis_url_secret_arn" {
  description = "Secrets Manager secret holding REDIS_URL (rediss://:TOKEN@host:port) for the Kubernetes Secret jacobian-redis."
  value       = module.jacobian.redis_url_secret_arn
}
