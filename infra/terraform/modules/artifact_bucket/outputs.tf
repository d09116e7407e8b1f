output "bucket_name" {
  description = "Name of the artifact bucket (S3_BUCKET)."
  value       = aws_s3_bucket.artifacts.bucket
}

output "bucket_arn" {
  description = "ARN of the artifact bucket."
  value       = aws_s3_bucket.artifacts.arn
}

output "kms_key_arn" {
  description = "ARN of the KMS key that encrypts the bucket; roles that read need kms:Decrypt on it, roles that write also kms:GenerateDataKey."
  value       = aws_kms_key.artifacts.arn
}
