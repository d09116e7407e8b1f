terraform {
  required_version = ">= 1.6"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.60, < 7.0"
    }
    random = {
      source  = "hashicorp/random"
      version = ">= 3.5, < 4.0"
    }
  }

  # Partial configuration: nothing about the state bucket is committed. Initialise with
  #   terraform init -backend-config=backend.hcl
  # where backend.hcl (see backend.hcl.example) names the bucket, key and region.
  backend "s3" {}
}
